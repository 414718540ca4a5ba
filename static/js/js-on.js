/* Staked! - marks the page as scripted before it is drawn (CSS hides what only works with JS). */
document.documentElement.classList.add("js");
