#!/usr/bin/env bash
# Install pipgammon as a systemd service (Raspberry Pi OS or any Debian with systemd).
#
#   sudo systemd/install.sh                  install or update; safe to run again at any time
#   systemd/install.sh --dry-run             print each step's command, change nothing
#   DESTDIR=/tmp/stage systemd/install.sh    put every file under /tmp/stage instead of /, and
#                                            touch no running system (no reload, enable offline)
#   systemd/install.sh --source SPEC         what pip installs (default: this checkout)
#
# Steps: the user pipgammon and the groups gpio and spi (systemd-sysusers); /opt/pipgammon/venv
# with the system's site-packages (Picamera2 and libcamera come from apt, not pip) and pipgammon
# in it; /etc/pipgammon/config.toml from the example only when it is absent (never overwritten);
# the unit, the udev rule and the docs; then daemon-reload, the udev rules reloaded, the unit
# enabled, and restarted if it was running. A staged venv (DESTDIR) runs only where it was built.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECKOUT=$(dirname "$HERE")
DESTDIR=${DESTDIR:-}
PYTHON=${PYTHON:-python3}
SOURCE=$CHECKOUT
DRY_RUN=0

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) DRY_RUN=1 ;;
    --source) [ $# -ge 2 ] || { echo "install.sh: --source needs a pip requirement or path" >&2; exit 2; }
              SOURCE=$2; shift ;;
    --source=*) SOURCE=${1#--source=} ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

ROOT=${DESTDIR%/}
VENV=$ROOT/opt/pipgammon/venv
CONFIG=$ROOT/etc/pipgammon/config.toml

say() { printf 'install.sh: %s\n' "$*"; }
run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run it as root (sudo), or with --dry-run or DESTDIR=..." >&2
  exit 2
fi
for tool in systemd-sysusers systemctl "$PYTHON"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "install.sh: $tool is missing (apt-get install systemd python3-venv)" >&2; exit 2; }
done

say "user and groups"
run install -d -m 0755 "$ROOT/etc/sysusers.d"
run install -m 0644 "$HERE/pipgammon.sysusers" "$ROOT/etc/sysusers.d/pipgammon.conf"
if [ -n "$ROOT" ]; then
  run systemd-sysusers --root="$ROOT" "$ROOT/etc/sysusers.d/pipgammon.conf"
else
  run systemd-sysusers /etc/sysusers.d/pipgammon.conf
fi

say "venv $VENV"
if [ ! -x "$VENV/bin/python" ]; then
  run "$PYTHON" -m venv --system-site-packages "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check --quiet)
run "${PIP[@]}" install --upgrade "$SOURCE"
# Again, itself only and forced: the checkout's code lands in the venv even when its version number
# has not changed, or when the system's site-packages already hold a pipgammon.
run "${PIP[@]}" install --force-reinstall --no-deps "$SOURCE"

say "config $CONFIG"
run install -d -m 0755 "$ROOT/etc/pipgammon"
run install -m 0644 "$HERE/config.example.toml" "$ROOT/etc/pipgammon/config.example.toml"
if [ -e "$CONFIG" ]; then
  say "keeping the existing $CONFIG"
else
  # 0640 root:pipgammon: it may hold the web token.
  run install -m 0640 "$HERE/config.example.toml" "$CONFIG"
  if [ -z "$ROOT" ]; then
    run chgrp pipgammon "$CONFIG"
  fi
fi
if [ "$DRY_RUN" = 0 ] && ! "$VENV/bin/pipgammon" config check "$CONFIG"; then
  say "warning: $CONFIG does not pass 'pipgammon config check'; the service will not start until it does"
fi

say "unit, udev rule, docs"
run install -d -m 0755 "$ROOT/etc/systemd/system" "$ROOT/etc/udev/rules.d" "$ROOT/opt/pipgammon/docs"
run install -m 0644 "$HERE/pipgammon.service" "$ROOT/etc/systemd/system/pipgammon.service"
run install -m 0644 "$HERE/99-pipgammon-rp2040.rules" "$ROOT/etc/udev/rules.d/99-pipgammon-rp2040.rules"
run install -m 0644 "$CHECKOUT/docs/service.md" "$ROOT/opt/pipgammon/docs/service.md"

if [ -n "$ROOT" ]; then
  say "enabling the unit under $ROOT (offline)"
  run systemctl --root="$ROOT" --quiet enable pipgammon.service
else
  say "reloading systemd and udev, enabling the unit"
  run systemctl daemon-reload
  run udevadm control --reload-rules
  run udevadm trigger --action=add --subsystem-match=tty
  run systemctl enable --quiet pipgammon.service
  run systemctl try-restart pipgammon.service
fi
# The venv's bin is on no one's PATH: name the command in full.
say "done. Edit $CONFIG, check it with: $VENV/bin/pipgammon config check $CONFIG"
say "then: sudo systemctl start pipgammon; journalctl -u pipgammon -f"
