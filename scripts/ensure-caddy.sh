#!/usr/bin/env bash
# The custom domain test puts Debian's Caddy in front of Plinth with docs/Caddyfile (on-demand TLS
# behind the ask check, ADR 241); install it when it is missing. The package's service is not used:
# the test runs its own Caddy on free ports.
set -euo pipefail
if [ -x /usr/bin/caddy ]; then exit 0; fi
SUDO=""; [ "$(id -u)" = "0" ] || SUDO=sudo
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq caddy
