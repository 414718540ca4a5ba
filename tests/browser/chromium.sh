#!/bin/sh
# Debian's Chromium, with every --disable-features joined into one. Chromium keeps only the last
# of them, and Playwright passes its own list before the arguments a test adds
# (tests/browser/session.py): without the join, adding ours would silently drop Playwright's.
features=""
for arg do
    shift
    case "$arg" in
        --disable-features=*) features="${features:+$features,}${arg#--disable-features=}" ;;
        *) set -- "$@" "$arg" ;;
    esac
done
exec /usr/bin/chromium ${features:+"--disable-features=$features"} "$@"
