#!/usr/bin/env bash
# Make sure the local services the tests use are answering: scripts/ensure_services.sh [postgres] [redis]
#
# For each service named (both by default): if it does not answer on 127.0.0.1, start it when it
# is installed; when CI=true and it is not installed, install it with apt-get first. Exits 0 when
# every named service answers, 1 otherwise (with a message on stderr saying which and why).
set -uo pipefail

PG_PORT=5432
REDIS_PORT=6379
is_ci() { [[ "${CI:-}" == "true" || "${CI:-}" == "1" ]]; }
say() { echo "ensure_services: $*" >&2; }

pg_answers() {
    if command -v pg_isready >/dev/null 2>&1; then
        pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -t 2
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null
    fi
}

redis_answers() {
    if command -v redis-cli >/dev/null 2>&1; then
        [[ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == "PONG" ]]
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT") 2>/dev/null
    fi
}

wait_for() {  # wait_for CHECK SECONDS
    local i
    for ((i = 0; i < $2 * 4; i++)); do
        "$1" && return 0
        sleep 0.25
    done
    return 1
}

apt_install() {
    say "installing $* with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    if [[ -z "${APT_UPDATED:-}" ]]; then
        apt-get update -qq >&2 && APT_UPDATED=1
    fi
    apt-get install -y -qq "$@" >&2
}

ensure_postgres() {
    pg_answers && return 0
    local installed_now=""
    if ! command -v pg_ctlcluster >/dev/null 2>&1 || [[ ! -d /etc/postgresql ]]; then
        if is_ci; then
            apt_install postgresql || { say "could not install PostgreSQL"; return 1; }
            installed_now=1
        else
            say "PostgreSQL is not answering on 127.0.0.1:$PG_PORT and is not installed"
            return 1
        fi
    fi
    local version
    version="$(ls /etc/postgresql | sort -V | tail -n 1)"
    if [[ -n "$installed_now" ]]; then
        # A fresh Debian cluster asks for a password over TCP; the tests connect as postgres
        # without one (as on the project's machines), so trust loopback connections.
        local hba="/etc/postgresql/$version/main/pg_hba.conf"
        sed -i '1i host all all ::1/128 trust' "$hba"
        sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
    fi
    say "starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 2>&1 ||
        pg_ctlcluster --skip-systemctl-redirect "$version" main reload >&2 2>&1
    wait_for pg_answers 30 || { say "PostgreSQL did not start answering on 127.0.0.1:$PG_PORT"; return 1; }
}

ensure_redis() {
    redis_answers && return 0
    if ! command -v redis-server >/dev/null 2>&1; then
        if is_ci; then
            apt_install redis-server || { say "could not install Redis"; return 1; }
        else
            say "Redis is not answering on 127.0.0.1:$REDIS_PORT and is not installed"
            return 1
        fi
    fi
    redis_answers && return 0 # the package may have started it
    say "starting Redis"
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log >&2
    wait_for redis_answers 15 || { say "Redis did not start answering on 127.0.0.1:$REDIS_PORT"; return 1; }
}

status=0
services=("$@")
[[ ${#services[@]} -eq 0 ]] && services=(postgres redis)
for service in "${services[@]}"; do
    case "$service" in
    postgres) ensure_postgres || status=1 ;;
    redis) ensure_redis || status=1 ;;
    *) say "unknown service '$service'"; exit 2 ;;
    esac
done
exit "$status"
