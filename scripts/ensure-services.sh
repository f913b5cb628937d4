#!/usr/bin/env bash
# Tests run against a real PostgreSQL and Redis. On a machine that has them (CI, dev boxes) this
# does nothing; on a fresh Debian machine it installs and starts them with apt-get. Browser tests
# drive Debian's Chromium, installed the same way.
set -euo pipefail
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; }
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "installing Chromium (apt-get) for the browser tests…"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if [ -n "${TEST_DATABASE_URL:-}" ] && [ -n "${TEST_REDIS_URL:-}" ]; then exit 0; fi
if ! command -v pg_isready >/dev/null || ! command -v redis-server >/dev/null; then
  if ! pg_up || ! redis_up; then
    echo "installing PostgreSQL and Redis (apt-get)…"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql redis-server >/dev/null
  fi
fi
if ! pg_up; then
  ver=$(ls /etc/postgresql | sort -V | tail -1)
  conf=/etc/postgresql/$ver/main/pg_hba.conf
  # Tests connect as postgres over TCP on loopback without a password.
  if ! grep -q "^host all all 127.0.0.1/32 trust" "$conf"; then
    $SUDO sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$conf"
  fi
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" main start || $SUDO pg_ctlcluster "$ver" main start
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
if ! redis_up; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis_up && break; sleep 0.5; done
fi
pg_up || { echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2; exit 1; }
redis_up || { echo "Redis is not reachable on 127.0.0.1:6379" >&2; exit 1; }
