#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests when it is missing (never a downloaded browser),
# and a CJK font, without which Chinese text is drawn as empty boxes (and measured as such).
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qi "wenquanyi\|wqy" || missing+=(fonts-wqy-microhei)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing for the browser tests: ${missing[*]} (run 'sudo apt-get install -y ${missing[*]}')" >&2
  [ -x /usr/bin/chromium ] || exit 1
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
