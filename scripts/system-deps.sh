#!/usr/bin/env bash
# System packages the test suite needs: Debian's Chromium (browser tests, driven by Playwright
# with executable_path=/usr/bin/chromium; no browser download), PostgreSQL (database tests, a
# throwaway server started by the tests), Redis (the rate limits shared by several app processes,
# issue 25: a throwaway redis-server started by the tests), poppler-utils (PDF pages to PNG) and the fonts and
# libraries WeasyPrint renders with, and Debian's nodejs and npm (`make run` installs the tablet's
# Pyodide runtime from package-lock.json with `npm ci`, issue 34). Installs only what is missing; needs root and apt-get.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -x "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | head -n1)" ] || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
# (read the listings into variables: `grep -q` closing a pipe early trips pipefail)
libs=$(ldconfig -p 2>/dev/null || true)
fonts=$(fc-list 2>/dev/null || true)
[[ $libs == *libpango-1.0* && $libs == *libpangoft2-1.0* ]] || need+=(libpango-1.0-0 libpangoft2-1.0-0)
[[ ${fonts,,} == *dejavu* ]] || need+=(fonts-dejavu-core)
if [ ${#need[@]} -eq 0 ]; then
  echo "system-deps: all present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: missing ${need[*]}; install them as root (apt-get install ${need[*]})" >&2
  exit 1
fi
echo "system-deps: installing ${need[*]}"
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
