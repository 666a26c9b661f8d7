#!/usr/bin/env bash
# The static-host tests serve published pages with Debian's nginx (docs/nginx.conf); install it when
# it is missing. The `nginx` package has gzip_static built in; brotli_static is a module of its own.
set -euo pipefail
BROTLI_STATIC=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
if [ -x /usr/sbin/nginx ] && [ -f "$BROTLI_STATIC" ]; then exit 0; fi
SUDO=""; [ "$(id -u)" = "0" ] || SUDO=sudo
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq nginx libnginx-mod-http-brotli-static
