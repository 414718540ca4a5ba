#!/usr/bin/env bash
# Make sure the browser tests (tests/browser, marked `browser`) can run: Debian's Chromium headless
# shell at /usr/bin/chromium-headless-shell (tests/browser/session.py says why not the full
# /usr/bin/chromium), driven by Playwright for Python from .venv. Playwright's own browser download
# (`playwright install`) is never used: it fetches a build from outside the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -x /usr/bin/chromium-headless-shell || ! -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]]; then
    echo "ensure_browser: installing Debian's chromium-headless-shell and an emoji font" >&2
    export DEBIAN_FRONTEND=noninteractive
    SUDO=""
    if [[ "$(id -u)" != "0" ]]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends chromium-headless-shell fonts-dejavu-core fonts-noto-color-emoji >/dev/null
fi

if ! .venv/bin/python -c "import playwright.sync_api" 2>/dev/null; then
    echo "ensure_browser: installing playwright (the Python package only)" >&2
    .venv/bin/python -m pip install -q "playwright>=1.45"
fi

/usr/bin/chromium-headless-shell --version 2>/dev/null >&2
