#!/usr/bin/env bash
# Makes sure Debian's chromium and chromedriver are at /usr/bin for DashboardIT, which drives the
# dashboard in a real headless browser: use them when installed, else install the packages
# chromium and chromium-driver with apt-get (as root, or through sudo).
set -euo pipefail
have() { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }
if have; then echo "chromium and chromedriver are installed"; exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
  echo "Installing chromium and chromium-driver with apt-get"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null || true
fi
have || { echo "DashboardIT needs /usr/bin/chromium and /usr/bin/chromedriver: install Debian's chromium and chromium-driver" >&2; exit 1; }
