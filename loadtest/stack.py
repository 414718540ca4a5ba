"""Private services and a production-like Staked! deployment on this machine.

Used by the load harness (`make load`), the fault tests (tests/faults/) and the soak. Every
process here is this module's own, on free ports: PostgreSQL and Redis are private instances in
a temporary folder, never the machine's shared ones (other test runs use those, and the fault
tests stop and restart these), and so are gunicorn, the Celery workers and beat. `Stack.close()`
(or leaving its `with` block, also on an error) stops them all and removes the folder.

The deployment is the one docs/operations.md, "Deploy", describes: gunicorn (gthread) web
servers, Celery workers and one beat, DEBUG=0, persistent database connections with health checks,
the cache and the broker in two Redis databases.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1:] or [Path("/usr/bin")]


# gunicorn's access log line, with the time the server took (ms): `make load` reads it.
ACCESS_LOG_FORMAT = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'


def free_port() -> int:
    """A TCP port nobody listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(check, *, seconds: float, what: str, interval: float = 0.1):
    """Call `check` until it returns something true; its value. Fails after `seconds`."""
    deadline = time.monotonic() + seconds
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            value = check()
            if value:
                return value
        except Exception as exc:  # the thing is not there yet: keep asking
            last_error = exc
        time.sleep(interval)
    raise TimeoutError(
        f"{what} within {seconds:g} s" + (f" (last: {last_error!r})" if last_error else "")
    )


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process `pid` and its descendants: the live ones
    count their own, the ones that ended count in their parent's (cutime, cstime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parent, used = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            child = int(stat.parent.name)
            parent[child] = int(fields[1])
            used[child] = sum(int(f) for f in fields[11:15]) / ticks
    total = 0.0
    for child, seconds in used.items():
        node = child
        while node and node != pid:
            node = parent.get(node, 0)
        if node == pid:
            total += seconds
    return total


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Process:
    """A child process in its own session, its output in a log file."""

    def __init__(self, name: str, argv: list[str], *, env: dict, log: Path, cwd=ROOT, user=None):
        self.name, self.argv, self.env, self.log, self.cwd, self.user = (
            name,
            argv,
            env,
            log,
            cwd,
            user,
        )
        self.popen: subprocess.Popen | None = None

    def start(self) -> Process:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                user=self.user,
            )
        return self

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def children(self) -> list[int]:
        """The pids of this process's direct children (gunicorn's or Celery's workers)."""
        found = []
        for status in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                fields = status.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.pid:
                    found.append(int(status.parent.name))
        return found

    def send(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signum)

    def kill(self) -> None:
        """SIGKILL to the whole process group (the process and its children), and reap it."""
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)

    def stop(self, signum: int = signal.SIGTERM, grace: float = 15) -> None:
        """`signum` to the main process (it stops its children in order), then SIGKILL."""
        if self.running:
            self.send(signum)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        self.kill()

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def _as_postgres_user() -> str | None:
    """PostgreSQL refuses to run as root: when we are root, its processes run as `postgres`."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("running as root and there is no 'postgres' user") from None
    return "postgres"


class PrivatePostgres:
    """A PostgreSQL cluster of our own (initdb in `folder`), over TCP on a free port, trust auth.

    `durable=False` turns fsync off: for tests, whose data never needs to survive a power cut.
    """

    def __init__(self, folder: Path, *, durable: bool = False):
        self.folder, self.durable = folder, durable
        self.data = folder / "pgdata"
        self.port = free_port()
        self.user = _as_postgres_user()
        self.process: Process | None = None

    def _reachable(self) -> None:
        if self.user:  # the postgres user must reach its folder (temporary folders are 0700)
            for folder in (self.folder, *self.folder.parents):
                if folder == Path(tempfile.gettempdir()):
                    break
                folder.chmod(0o755)

    def copy(self, data: Path) -> None:
        """Start from a copy of the stopped cluster in `data` (owner and modes kept)."""
        self._reachable()
        subprocess.run(["cp", "-a", str(data), str(self.data)], check=True)

    def init(self) -> None:
        self.data.mkdir(parents=True)
        self._reachable()
        if self.user:
            shutil.chown(self.data, self.user, self.user)
        done = subprocess.run(
            [str(PG_BIN[0] / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
             "-E", "UTF8", "--no-sync", "--locale=C"],
            capture_output=True, text=True, user=self.user,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        options = [
            "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
            "-c", "max_connections=200", "-c", "shared_buffers=128MB",
        ]  # fmt: skip
        if not self.durable:
            options += [
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ]
        self.process = Process(
            "postgres",
            [str(PG_BIN[0] / "postgres"), "-D", str(self.data), "-p", str(self.port), *options],
            env={"PATH": os.environ.get("PATH", ""), "LC_ALL": "C"},
            log=self.folder / "postgres.log",
            user=self.user,
        ).start()
        wait_until(
            self.ready, seconds=60, what=f"PostgreSQL on port {self.port} accepts connections"
        )

    def ready(self) -> bool:
        if not self.process.running:
            raise RuntimeError(f"PostgreSQL exited:\n{self.process.tail()}")
        import psycopg

        psycopg.connect(self.url("postgres"), connect_timeout=2).close()
        return True

    def stop(self) -> None:
        """A fast shutdown (SIGINT): sessions are cut, nothing is lost."""
        if self.process:
            self.process.stop(signal.SIGINT, grace=30)

    def url(self, database: str = "staked") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


class PrivateRedis:
    """A Redis of our own on a free port, nothing saved to disk."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.process: Process | None = None

    def start(self) -> None:
        self.process = Process(
            "redis",
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--dir", str(self.folder)],
            env={"PATH": os.environ.get("PATH", "")},
            log=self.folder / "redis.log",
        ).start()  # fmt: skip
        wait_until(lambda: port_open(self.port), seconds=20, what=f"Redis on port {self.port}")

    def stop(self) -> None:
        if self.process:
            self.process.kill()  # a crash, as far as its clients can tell; it keeps nothing

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"


class Stack:
    """One Staked! deployment on private services: add web servers, workers and beats to it."""

    def __init__(self, *, durable: bool = False, env: dict | None = None, keep: bool = False):
        self.folder = Path(tempfile.mkdtemp(prefix="staked-stack-"))
        self.keep = keep or os.environ.get("STAKED_KEEP_STACK") == "1"  # to read its logs
        self.postgres = PrivatePostgres(self.folder / "postgres", durable=durable)
        self.redis = PrivateRedis(self.folder)
        self.processes: list[Process] = []
        self.extra_env = env or {}
        self.env: dict = {}

    # --- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> Stack:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        self.postgres.folder.mkdir(parents=True)
        self.redis.start()
        with _migrated_cluster() as template:
            if template.exists():  # a copy of a cluster migrated before: no initdb, no migrate
                self.postgres.copy(template)
                self.postgres.start()
                self.env = self._environment(self.postgres.url("staked"))
                return
            self.postgres.init()
            self.postgres.start()
            self.env = self._environment(self.postgres.create_database("staked"))
            self.manage("migrate", "--noinput", "-v", "0")
            self.postgres.stop()  # a clean shutdown: the copy is a consistent cluster
            building = template.with_name(f"{template.name}.{os.getpid()}")
            subprocess.run(["cp", "-a", str(self.postgres.data), str(building)], check=True)
            building.rename(template)
            self.postgres.start()

    def close(self) -> None:
        for process in reversed(self.processes):
            process.stop(grace=10)
        self.redis.stop()
        self.postgres.stop()
        if not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _environment(self, database_url: str) -> dict:
        keep = {
            k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TZ")
        }
        data = self.folder / "var"
        data.mkdir(exist_ok=True)
        return {
            **keep,
            "DJANGO_SETTINGS_MODULE": "staked.settings",
            "PYTHONUNBUFFERED": "1",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # Plain HTTP on the loopback: no TLS proxy in front of these servers.
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": database_url,
            "CONN_MAX_AGE": "60",
            "REDIS_URL": self.redis.url(0),
            "CELERY_BROKER_URL": self.redis.url(1),
            "STAKED_DATA_DIR": str(data),
            "LOG_LEVEL": "INFO",
            **self.extra_env,
        }

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=self.env, check=True, capture_output=True, text=True,
        )  # fmt: skip

    def _spawn(self, name: str, argv: list[str], env: dict | None = None) -> Process:
        process = Process(
            name, argv, env={**self.env, **(env or {})}, log=self.folder / f"{name}.log"
        )
        self.processes.append(process.start())
        return process

    # --- the processes of docs/operations.md, "Deploy" -----------------------------------------

    def web(self, name: str = "web", *, workers: int = 2, threads: int = 4, env=None) -> Web:
        port = free_port()
        process = self._spawn(
            name,
            [sys.executable, "-m", "gunicorn", "staked.wsgi", "--bind", f"127.0.0.1:{port}",
             "--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads),
             "--no-control-socket", "--access-logfile", "-", "--graceful-timeout", "5",
             "--logger-class", "staked.access_log.RedactingLogger",
             "--access-logformat", ACCESS_LOG_FORMAT],
            env,
        )  # fmt: skip
        web = Web(process, port)
        wait_until(web.up, seconds=60, what=f"{name} answers on port {port}")
        return web

    def stream(self, name: str = "stream", *, env=None) -> Web:
        """The stream server (Server-Sent Events, games/api/stream.py): uvicorn, one process.
        Start it before the web servers: they then name it in each game view's `stream_url`."""
        port = free_port()
        process = self._spawn(
            name,
            [sys.executable, "-m", "uvicorn", "staked.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--no-access-log", "--log-level", "warning"],
            env,
        )  # fmt: skip
        server = Web(process, port)
        wait_until(server.up, seconds=60, what=f"{name} answers on port {port}")
        self.env["STREAM_URL"] = server.url
        return server

    def worker(self, name: str = "worker", *, concurrency: int = 2, env=None) -> Process:
        process = self._spawn(
            name,
            [sys.executable, "-m", "celery", "-A", "staked", "worker", "--loglevel", "INFO",
             "--concurrency", str(concurrency), "--hostname", f"{name}@%h",
             "--without-gossip", "--without-mingle"],
            env,
        )  # fmt: skip
        wait_until(
            lambda: "ready." in process.log.read_text(errors="replace") or _dead(process),
            seconds=60, what=f"{name} ready",
        )  # fmt: skip
        return process

    def beat(self, name: str = "beat", *, env=None) -> Process:
        return self._spawn(
            name,
            [sys.executable, "-m", "celery", "-A", "staked", "beat", "--loglevel", "INFO",
             "--schedule", str(self.folder / f"{name}-schedule")],
            env,
        )  # fmt: skip

    # --- looking inside ------------------------------------------------------------------------

    @contextlib.contextmanager
    def db(self) -> Iterator:
        """A psycopg connection to the deployment's database (autocommit)."""
        import psycopg

        with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as conn:
            yield conn

    def logs(self) -> str:
        return "\n".join(f"--- {p.name} ---\n{p.tail()}" for p in self.processes)


@contextlib.contextmanager
def _migrated_cluster() -> Iterator[Path]:
    """The data folder of a stopped PostgreSQL cluster whose "staked" database has every
    migration applied, held under a lock; the caller makes it when it does not exist yet.

    It is made once per set of migrations and PostgreSQL version and kept in the temporary folder,
    so every later deployment (each fault test's, the load runs') starts from a copy: initdb and
    the migrations cost about 2.5 s of CPU each time, a copy a tenth of a second. The lock lets
    test processes running side by side make it only once."""
    digest = hashlib.sha256(str(PG_BIN[0]).encode())
    for path in sorted(ROOT.glob("**/migrations/[0-9]*.py")):
        if ".venv" not in path.parts:
            digest.update(path.read_bytes())
    template = Path(tempfile.gettempdir()) / f"staked-stack-cluster-{digest.hexdigest()[:16]}"
    with open(f"{template}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield template
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _dead(process: Process) -> bool:
    if not process.running:
        raise RuntimeError(f"{process.name} exited:\n{process.tail()}")
    return False


class Web:
    """A gunicorn server of the stack."""

    def __init__(self, process: Process, port: int):
        self.process, self.port = process, port
        self.url = f"http://127.0.0.1:{port}"

    def up(self) -> bool:
        _dead(self.process)
        import urllib.request

        with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
            return response.status == 200
