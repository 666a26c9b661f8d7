#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (a browser download cannot work on these machines): its
# headless shell for the suite, and the full browser (/usr/bin/chromium) for the smoke test on Node 24,
# Lighthouse and the bench (ADR 250). Installs whichever is absent with apt-get; needs root, as CI
# and the dev machines are.
set -euo pipefail
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
[ -x /usr/lib/chromium/chromium-headless-shell ] || packages+=(chromium-headless-shell)
if [ "${#packages[@]}" -eq 0 ]; then
  exit 0
fi
echo "Installing Debian's ${packages[*]} (needed by the browser tests)..."
if [ "$(id -u)" -ne 0 ]; then
  echo "Run as root, or install the packages ${packages[*]} yourself." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${packages[@]}" >/dev/null
/usr/bin/chromium --version
