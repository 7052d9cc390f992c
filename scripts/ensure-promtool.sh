#!/usr/bin/env bash
# Makes sure Prometheus' promtool is at /usr/bin or on the PATH for OperationsRulesTest, which checks and unit-tests
# the alert rules in ops/prometheus (docs/operations.md#grafana-and-alerts): use it when installed,
# else install Debian's package prometheus (which ships promtool) with apt-get (as root, or through sudo).
set -euo pipefail
have() { [ -x /usr/bin/promtool ] || command -v promtool >/dev/null 2>&1; }
if ! have && command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
  echo "Installing prometheus (for promtool) with apt-get"
  # Without recommends: only promtool is wanted, not the exporters the package recommends.
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null || true
fi
have || { echo "the alert rules' tests need promtool: install Debian's prometheus" >&2; exit 1; }
echo "promtool is installed: $( { [ -x /usr/bin/promtool ] && /usr/bin/promtool --version || promtool --version; } 2>&1 | head -1)"
