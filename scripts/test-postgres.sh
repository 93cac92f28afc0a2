#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the tests and prints its URL (postgres://…), e.g.
#   export MAILROOM_TEST_PG_URL=$(scripts/test-postgres.sh)
# The cluster lives in a temporary directory and trusts loopback only; stderr names the directory and the pg_ctl
# command that stops and starts it (`<pg_ctl> -D <dir> stop`, `<pg_ctl> -D <dir> -l <dir>/server.log -w start`).
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bindir" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
dir=$(mktemp -d /tmp/mailroom-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null \
  || node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_owner=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as_owner=(runuser -u postgres --)
fi
"${as_owner[@]}" "$bindir/initdb" -D "$dir" -U mailroom --auth=trust -E UTF8 --no-locale >/dev/null
# In the cluster's own configuration, so that a plain `pg_ctl -D DIR start` brings it back the same (tests stop it).
cat >>"$dir/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 400
CONF
"${as_owner[@]}" "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w start >/dev/null
"$bindir/psql" -h 127.0.0.1 -p "$port" -U mailroom -d postgres -qc "CREATE DATABASE mailroom" >/dev/null
echo "cluster: $dir" >&2
echo "pg_ctl: ${as_owner[*]} $bindir/pg_ctl" >&2
echo "postgres://mailroom@127.0.0.1:$port/mailroom"
