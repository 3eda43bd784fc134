#!/usr/bin/env bash
# Checks the deployment example for real, as far as one machine allows (run from anywhere, as
# root, with Docker running and a PostgreSQL server on this host):
#
#   1. with BASE=local (default: local/bookworm-python), builds that base image from Debian's
#      packages with debootstrap (for machines that reach Debian's mirror but not the registry
#      of images); with BASE=python:3.11-slim, uses the official image as the Dockerfile does;
#   2. builds the bot's image from docs/deploy/Dockerfile;
#   3. in a container on the host's network: `backgammon-bot check` before the migrations (it
#      must fail: migrations not current), `backgammon-bot migrate`, `check` again (must pass
#      but for the missing token), and `run` without a token (must refuse, exit 2);
#   4. validates compose.yaml (`docker-compose config` or `docker compose config`) and the
#      systemd unit (`systemd-analyze verify`, when there is one).
#
# Settings (environment): BASE, MIRROR (Debian mirror), PG_URL (an admin URL of the host's
# PostgreSQL; a database of its own is created and dropped), IMAGE (the bot's tag), ROOTFS
# (where debootstrap builds; kept to build again faster).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
BASE="${BASE:-local/bookworm-python}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
IMAGE="${IMAGE:-backgammon-bot:check}"
ROOTFS="${ROOTFS:-/var/tmp/bookworm-python-rootfs}"
PG_URL="${PG_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/postgres}"
DB="backgammon_check_$$"
step() { printf '\n== %s\n' "$*"; }

step "docker"
docker info --format 'server {{.ServerVersion}}, {{.Driver}}'

if [[ "$BASE" == local/* ]]; then
    step "base image $BASE from Debian bookworm ($MIRROR)"
    if ! docker image inspect "$BASE" >/dev/null 2>&1; then
        command -v debootstrap >/dev/null || apt-get install -y debootstrap
        if [[ ! -x "$ROOTFS/usr/bin/python3" ]]; then
            rm -rf "$ROOTFS"
            # python3-venv for the image's virtual environment, passwd for useradd (both are in
            # the official python image)
            debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,passwd \
                bookworm "$ROOTFS" "$MIRROR"
            chroot "$ROOTFS" apt-get clean
        fi
        # Where this machine reaches the registries through a TLS proxy with a certificate
        # authority of its own, the image must trust it too: the host's local CAs are added to
        # the base (and pip told to use the system's store, not its own copy of certifi's).
        if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
            mkdir -p "$ROOTFS/usr/local/share/ca-certificates"
            cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
            chroot "$ROOTFS" update-ca-certificates >/dev/null
        fi
        printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$ROOTFS/etc/pip.conf"
        # an imported image has no settings: PATH and CMD as in Debian's and the official images
        tar -C "$ROOTFS" -c . | docker import \
            --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
            --change 'CMD ["bash"]' - "$BASE"
    fi
fi

step "the bot's image $IMAGE (FROM $BASE)"
docker build --network host --build-arg BASE_IMAGE="$BASE" -t "$IMAGE" \
    -f "$REPO/docs/deploy/Dockerfile" "$REPO"
docker image ls "$IMAGE" --format 'size {{.Size}}'

step "a database of its own on the host's PostgreSQL"
admin="${PG_URL/+psycopg/}"
psql "$admin" -qc "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
trap 'psql "$admin" -qc "DROP DATABASE IF EXISTS $DB" || true' EXIT
url="${PG_URL%/*}/$DB"
run() { docker run --rm --network host -e DATABASE_URL="$url" -e SHARD_COUNT=2 -e SHARD_IDS=0 "$IMAGE" "$@"; }

step "check before the migrations: must fail (schema not current)"
set +e
out="$(run backgammon-bot check 2>&1)"
code=$?
set -e
echo "$out"
[[ $code == 1 ]] && grep -q '^FAIL  migrations' <<<"$out" \
    || { echo "check did not fail on an empty database (exit $code)" >&2; exit 1; }

step "migrate"
run backgammon-bot migrate

step "check after the migrations: every check passes (no token: the terminal only)"
out="$(run backgammon-bot check 2>&1)"
echo "$out"
grep -q '^ok    migrations' <<<"$out" && grep -q '^ok    computer: bgsage' <<<"$out" \
    || { echo "migrations not current or bgsage missing in the image" >&2; exit 1; }

step "run without a token: must refuse (exit 2)"
set +e
run backgammon-bot run
code=$?
set -e
[[ $code == 2 ]] || { echo "run without a token exited $code, not 2" >&2; exit 1; }

step "the bot as the image's user, files where it may write"
docker run --rm --network host "$IMAGE" sh -c 'id -un; pwd; touch probe && echo writable'

step "compose file"
cd "$HERE"
if command -v docker-compose >/dev/null; then
    DISCORD_TOKEN=t POSTGRES_PASSWORD=pw docker-compose -f compose.yaml config -q && echo valid
else
    DISCORD_TOKEN=t POSTGRES_PASSWORD=pw docker compose -f compose.yaml config -q && echo valid
fi

step "systemd unit"
if command -v systemd-analyze >/dev/null; then
    # An instance (backgammon-bot@0) of a copy of the template. verify also checks that the
    # binary exists, which it only does where the unit's install steps were followed.
    dir="$(mktemp -d)"
    cp "$HERE/backgammon-bot@.service" "$dir/"
    ln -s "$dir/backgammon-bot@.service" "$dir/backgammon-bot@0.service"
    out="$(systemd-analyze verify "$dir/backgammon-bot@0.service" 2>&1 || true)"
    echo "$out"
    if grep -v -e '/opt/backgammon-bot/bin/backgammon-bot' -e '^$' <<<"$out" | grep -q .; then
        echo "systemd-analyze found more than the missing installation" >&2
        exit 1
    fi
    echo "valid (but for the console script, not installed on this machine)"
else
    echo "no systemd-analyze here: skipped"
fi
echo
echo "deployment example checked"
