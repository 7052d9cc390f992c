#!/usr/bin/env bash
# Makes sure Debian's bubblewrap (bwrap) is at /usr/bin, in which the workspace tool `run` starts
# its commands (docs/workspaces.md): use it when installed, else install the package bubblewrap
# with apt-get (as root, or through sudo), then check it can make its sandbox here.
set -euo pipefail
have() { [ -x /usr/bin/bwrap ]; }
if ! have && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
  echo "Installing bubblewrap with apt-get"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq bubblewrap >/dev/null || true
fi
have || { echo "the workspace tests need /usr/bin/bwrap: install Debian's bubblewrap" >&2; exit 1; }
/usr/bin/bwrap --unshare-all --die-with-parent --ro-bind / / --dev /dev --proc /proc -- /bin/true \
  || { echo "bubblewrap is installed but cannot make its sandbox here (user namespaces refused?)" >&2; exit 1; }
echo "bubblewrap is installed and works"
