#!/usr/bin/env bash
# Browser tests drive Debian's Chromium through playwright-core; nothing downloads a browser.
# Installs it with apt-get when it is missing and we are allowed to (root); otherwise says how.
set -euo pipefail
if [ -n "${CHROME_PATH:-}" ] && [ -x "${CHROME_PATH}" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium is needed for the browser tests: install Debian's chromium (sudo apt-get install chromium) or set CHROME_PATH to a Chromium binary." >&2
exit 1
