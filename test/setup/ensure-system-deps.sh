#!/usr/bin/env bash
# System programs the tests drive: Debian's Chromium (browser tests, through playwright-core;
# nothing downloads a browser) and Debian's nginx (the deployment test). Installed with
# apt-get when missing and we are root; otherwise this says what to install.
set -euo pipefail
missing=()
if ! { [ -n "${CHROME_PATH:-}" ] && [ -x "${CHROME_PATH}" ]; } && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx-light); fi
# deploy/nginx.conf sends the build's .br files (brotli_static) and compresses the rest (brotli).
if [ ! -e /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so ]; then missing+=(libnginx-mod-http-brotli-filter); fi
if [ ! -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ]; then missing+=(libnginx-mod-http-brotli-static); fi
# The browser tests run Chromium's headless shell when it is there (test/helpers/browser.ts):
# the same Chromium, from the same Debian source package, without the desktop browser around
# it, at about a third of the processor time. Without it they run /usr/bin/chromium.
# A Debian release without that package is asked once per install of the project's
# packages, not before every run: apt-get update alone takes seconds. `npm ci` empties
# node_modules, and with it this note.
no_shell_note="node_modules/.cache/docsgen-tests/no-headless-shell"
optional=()
if [ -z "${CHROME_PATH:-}" ] && [ ! -x /usr/bin/chromium-headless-shell ] && [ ! -e "$no_shell_note" ]; then optional+=(chromium-headless-shell); fi
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} ${optional[*]} from Debian for the tests…"
  apt-get update -qq
  if [ ${#missing[@]} -gt 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; fi
  # A Debian release without the headless shell's package still runs the tests, in /usr/bin/chromium.
  if [ ${#optional[@]} -gt 0 ] && ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${optional[@]}" >/dev/null 2>&1; then
    echo "${optional[*]} is not available here: the browser tests will run /usr/bin/chromium." >&2
    mkdir -p "$(dirname "$no_shell_note")" && : > "$no_shell_note"
  fi
  # The package starts a default nginx on port 80; the tests start their own.
  if command -v service >/dev/null 2>&1; then service nginx stop >/dev/null 2>&1 || true; fi
  exit 0
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "The browser tests will run /usr/bin/chromium; with Debian's chromium-headless-shell installed they take about a third of the processor time." >&2
  exit 0
fi
echo "The tests need: ${missing[*]}. Install them (sudo apt-get install ${missing[*]}) or set CHROME_PATH to a Chromium binary." >&2
exit 1
