#!/usr/bin/env bash
# Local single-node Apache Kafka broker (KRaft) for pitwatch's tests and benchmarks.
#
#   scripts/kafka.sh start    resolve the broker jars (Maven), format storage once, start
#                             the broker in the background, wait until it answers
#                             (already running: no-op apart from the wait)
#   scripts/kafka.sh stop     SIGTERM, wait for a clean shutdown, SIGKILL after a timeout
#   scripts/kafka.sh status   exit 0 and print the pid if the broker runs and answers
#   scripts/kafka.sh wait     wait until the broker answers (fails after the timeout)
#   scripts/kafka.sh reset    stop and delete all topics and metadata (formatted anew on
#                             the next start)
#   scripts/kafka.sh resolve  only resolve the jars into deploy/kafka/lib/<version>
#   scripts/kafka.sh bootstrap   print the bootstrap address, e.g. 127.0.0.1:9092
#
# Environment:
#   PITWATCH_VAR                      state root (default: <repo>/var); the broker keeps
#                                     its data, config, pid and broker.log in $PITWATCH_VAR/kafka
#   PITWATCH_KAFKA_PORT               client port (default 9092)
#   PITWATCH_KAFKA_CONTROLLER_PORT    KRaft controller port (default 9093)
#   PITWATCH_KAFKA_VERSION            override the Kafka version named in deploy/kafka/pom.xml
#   PITWATCH_KAFKA_HEAP               max JVM heap (default 512m)
#   PITWATCH_KAFKA_WAIT_SECONDS       how long start/wait wait for the broker (default 120)
#   PITWATCH_KAFKA_STOP_SECONDS       how long stop waits before SIGKILL (default 60)
#   PITWATCH_KAFKA_JAVA_OPTS          extra JVM options
#   JAVA_HOME                         Java 17+ to use (default: `java` on PATH)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPLOY="$ROOT/deploy/kafka"
VAR="$(realpath -m "${PITWATCH_VAR:-$ROOT/var}")"
KDIR="$VAR/kafka"
DATA="$KDIR/data"
CONF="$KDIR/server.properties"
PIDFILE="$KDIR/broker.pid"
LOG="$KDIR/broker.log"
PORT="${PITWATCH_KAFKA_PORT:-9092}"
CONTROLLER_PORT="${PITWATCH_KAFKA_CONTROLLER_PORT:-9093}"
HEAP="${PITWATCH_KAFKA_HEAP:-512m}"
WAIT_SECONDS="${PITWATCH_KAFKA_WAIT_SECONDS:-120}"
STOP_SECONDS="${PITWATCH_KAFKA_STOP_SECONDS:-60}"

say() { echo "kafka.sh: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

java_bin() {
  if [[ -n "${JAVA_HOME:-}" ]]; then echo "$JAVA_HOME/bin/java"; else command -v java || true; fi
}

# The version the jars in lib/ must be: the override, else the one the POM names.
wanted_version() {
  if [[ -n "${PITWATCH_KAFKA_VERSION:-}" ]]; then
    echo "$PITWATCH_KAFKA_VERSION"
  else
    sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$DEPLOY/pom.xml" | head -n1
  fi
}

# One jar directory per version (deploy/kafka/lib/<version>, gitignored): switching versions
# never deletes the jars of a broker that is running from them.
LIB="$DEPLOY/lib/$(wanted_version)"

# A stamp of what lib/ was resolved from, so a changed POM or version re-resolves and an
# unchanged one costs nothing (no Maven start, no network).
lib_stamp() {
  { sha256sum "$DEPLOY/pom.xml" | cut -d' ' -f1; wanted_version; } | tr '\n' ' '
}

resolve_jars() {
  local stamp; stamp="$(lib_stamp)"
  if [[ -f "$LIB/.resolved" && "$(cat "$LIB/.resolved")" == "$stamp" ]]; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found (Maven 3.8+ is needed to resolve the broker jars)"
  say "resolving Kafka $(wanted_version) jars from Maven Central into $LIB"
  rm -rf "$LIB"
  local args=(-B -q -f "$DEPLOY/pom.xml" dependency:copy-dependencies
              -DoutputDirectory="$LIB" -DincludeScope=runtime)
  [[ -n "${PITWATCH_KAFKA_VERSION:-}" ]] && args+=("-Dkafka.version=$PITWATCH_KAFKA_VERSION")
  # The sed drops the bare colour-reset codes Maven 3.8 prints even in batch mode.
  mvn "${args[@]}" 2>&1 | sed 's/\x1b\[0m//g' >&2 ||
    die "Maven could not resolve the broker jars (see output above)"
  ls "$LIB"/kafka_2.13-*.jar >/dev/null 2>&1 || die "no kafka_2.13 jar in $LIB after resolve"
  echo "$stamp" >"$LIB/.resolved"
}

check_java() {
  local java; java="$(java_bin)"
  [[ -x "$java" ]] || die "java not found (set JAVA_HOME or put Java 17+ on PATH)"
  local major
  major="$("$java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)"
  [[ -n "$major" && "$major" -ge 17 ]] || die "Kafka needs Java 17+, $java is version '${major:-unknown}'"
}

# JVM options for the broker and its tools: a small heap (the machine has 2 cores and is
# shared with the test workers) and G1 tuned for short pauses, as Kafka's own scripts do.
jvm_args() {
  JVM_ARGS=(-Xms128m "-Xmx$HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20
            -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent
            -Djava.awt.headless=true "-Dlog4j2.configurationFile=$DEPLOY/log4j2.properties")
  # shellcheck disable=SC2206  # word splitting of the user's extra options is intended
  [[ -n "${PITWATCH_KAFKA_JAVA_OPTS:-}" ]] && JVM_ARGS+=(${PITWATCH_KAFKA_JAVA_OPTS})
  JVM_ARGS+=(-cp "$LIB/*")
}

java_cmd() {
  jvm_args
  "$(java_bin)" "${JVM_ARGS[@]}" "$@"
}

render_config() {
  mkdir -p "$KDIR"
  sed -e "s|@KAFKA_PORT@|$PORT|g" -e "s|@CONTROLLER_PORT@|$CONTROLLER_PORT|g" \
      -e "s|@DATA_DIR@|$DATA|g" "$DEPLOY/server.properties" >"$CONF.tmp"
  mv "$CONF.tmp" "$CONF"
}

# KRaft storage must be formatted once with a cluster id before the first start.
format_storage() {
  if [[ -f "$DATA/meta.properties" ]]; then
    local formatted_with; formatted_with="$(cat "$KDIR/formatted-version" 2>/dev/null || echo unknown)"
    if [[ "$formatted_with" != "$(wanted_version)" ]]; then
      die "storage in $DATA was formatted by Kafka $formatted_with, not $(wanted_version): run 'scripts/kafka.sh reset'"
    fi
    return 0
  fi
  mkdir -p "$DATA"
  local cluster_id
  cluster_id="$(java_cmd kafka.tools.StorageTool random-uuid 2>>"$LOG" | tail -n1)"
  [[ -n "$cluster_id" ]] || die "kafka.tools.StorageTool random-uuid printed nothing (see $LOG)"
  say "formatting KRaft storage in $DATA (cluster id $cluster_id)"
  java_cmd kafka.tools.StorageTool format -t "$cluster_id" -c "$CONF" >>"$LOG" 2>&1 \
    || die "formatting storage failed (see $LOG)"
  wanted_version >"$KDIR/formatted-version"
}

# The pid from the pid file if that process is still our broker (a recycled pid must
# never be signalled).
running_pid() {
  [[ -f "$PIDFILE" ]] || return 1
  local pid; pid="$(cat "$PIDFILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "kafka.Kafka $CONF" || return 1
  echo "$pid"
}

# True when something answers a Kafka ApiVersions request on the client port. The broker
# opens its client listener only after it has joined the quorum and been unfenced, so an
# answer here means topics can be created and records produced.
answers() {
  python3 - "$PORT" <<'PY'
import socket
import struct
import sys


def recv_exactly(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


try:
    with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3) as sock:
        client_id = b"pitwatch-probe"
        # ApiVersions (api key 18) v0: header = key, version, correlation id, client id.
        body = struct.pack(">hhih", 18, 0, 4242, len(client_id)) + client_id
        sock.sendall(struct.pack(">i", len(body)) + body)
        (size,) = struct.unpack(">i", recv_exactly(sock, 4))
        correlation, error = struct.unpack(">ih", recv_exactly(sock, size)[:6])
    sys.exit(0 if correlation == 4242 and error == 0 else 1)
except (OSError, struct.error):
    sys.exit(1)
PY
}

port_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when the client port is held by process $1 (or when `ss` is missing and that cannot
# be told). Guards against declaring our broker ready because another one answers on the
# same port while ours is failing to bind.
port_held_by() {
  command -v ss >/dev/null || return 0
  ss -Hltnp "sport = :$PORT" 2>/dev/null | grep -q "pid=$1,"
}

wait_ready() {
  local deadline=$((SECONDS + WAIT_SECONDS)) pid
  while ((SECONDS < deadline)); do
    if [[ -f "$PIDFILE" ]]; then
      # Liveness by pid alone: right after the launch the child may not have exec'd java
      # yet, so its command line cannot be checked here.
      pid="$(cat "$PIDFILE")"
      if ! kill -0 "$pid" 2>/dev/null; then
        say "broker process exited; last lines of $LOG:"
        tail -n 40 "$LOG" >&2 || true
        return 1
      fi
      if answers && port_held_by "$pid"; then
        say "broker (pid $pid) answers on 127.0.0.1:$PORT"
        return 0
      fi
    elif answers; then
      # Not started by this script (no pid file): something answers, which is all a
      # caller of `wait` asked for.
      say "a broker answers on 127.0.0.1:$PORT"
      return 0
    fi
    sleep 0.5
  done
  say "broker did not answer on 127.0.0.1:$PORT within ${WAIT_SECONDS}s; last lines of $LOG:"
  tail -n 40 "$LOG" >&2 2>/dev/null || true
  return 1
}

cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    say "already running (pid $pid)"
    wait_ready
    return
  fi
  if port_taken "$PORT" || port_taken "$CONTROLLER_PORT"; then
    die "port $PORT or $CONTROLLER_PORT on 127.0.0.1 is taken by another process; set PITWATCH_KAFKA_PORT / PITWATCH_KAFKA_CONTROLLER_PORT"
  fi
  check_java
  resolve_jars
  render_config
  format_storage
  say "starting Kafka $(wanted_version) on 127.0.0.1:$PORT (log: $LOG)"
  echo "=== $(date -u +%FT%TZ) start Kafka $(wanted_version) ===" >>"$LOG"
  # setsid: the broker outlives the shell (and its process group) that started it.
  # 9>&-: it must not inherit the lock this script holds.
  jvm_args
  setsid "$(java_bin)" "${JVM_ARGS[@]}" kafka.Kafka "$CONF" >>"$LOG" 2>&1 </dev/null 9>&- &
  echo $! >"$PIDFILE"
  wait_ready
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    say "not running"
    rm -f "$PIDFILE"
    return 0
  fi
  say "stopping (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_SECONDS))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    say "no clean shutdown within ${STOP_SECONDS}s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  rm -f "$PIDFILE"
  say "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    if answers && port_held_by "$pid"; then
      echo "running (pid $pid) on 127.0.0.1:$PORT"
      return 0
    fi
    echo "started (pid $pid) but not answering on 127.0.0.1:$PORT"
    return 1
  fi
  echo "stopped"
  return 1
}

cmd_reset() {
  cmd_stop
  rm -rf "$DATA" "$KDIR/formatted-version" "$CONF"
  say "storage deleted; the next start formats it anew"
}

mkdir -p "$KDIR"
case "${1:-}" in
  start)
    exec 9>"$KDIR/.lock"
    flock 9
    cmd_start ;;
  stop)
    exec 9>"$KDIR/.lock"
    flock 9
    cmd_stop ;;
  reset)
    exec 9>"$KDIR/.lock"
    flock 9
    cmd_reset ;;
  status) cmd_status ;;
  wait) wait_ready ;;
  resolve) resolve_jars ;;
  bootstrap) echo "127.0.0.1:$PORT" ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2 ;;
esac
