#!/usr/bin/env bash
# The static-host test serves published pages with Debian's nginx; install it when it is missing.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" = "0" ]; then apt-get update -qq && apt-get install -y -qq nginx-light
else sudo apt-get update -qq && sudo apt-get install -y -qq nginx-light; fi
