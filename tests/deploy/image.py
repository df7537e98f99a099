#!/usr/bin/env python3
"""Runs the runtime stage of deploy/Dockerfile without Docker, and a node in it.

No Docker engine is needed: the stage's base image (Debian bookworm) is made with debootstrap,
the stage's RUN instructions run in it with chroot, the server binary takes the place of the
build stage's, and the stage's ENV, WORKDIR and USER start it, as the Compose file does: on
a new PostgreSQL database (dropped afterwards) and Redis, with the root file system read-only. Then the stage's HEALTHCHECK command
must pass, /readyz must answer 200, and SIGTERM must stop the node within the Compose file's
grace period.

    tests/deploy/image.py SERVER_BINARY POSTGRES_ADMIN_URL REDIS_URL

Needs root (chroot, mount), psql, and debootstrap (installed with apt-get when missing).
"""

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
GRACE_SECONDS = 30


def say(message):
    print(f"image: {message}", file=sys.stderr, flush=True)


def instructions(path):
    """The Dockerfile's instructions as (keyword, arguments), continuation lines joined."""
    joined, current = [], ""
    for line in path.read_text().splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        current += line
        keyword, _, arguments = current.strip().partition(" ")
        joined.append((keyword.upper(), arguments.strip()))
        current = ""
    return joined


def runtime_stage(path):
    """The instructions after the last FROM, which must name bookworm."""
    steps = instructions(path)
    last_from = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    base = steps[last_from][1].split()[0]
    if "bookworm" not in base:
        raise SystemExit(f"image: the runtime stage's base {base} is not Debian bookworm")
    return steps[last_from + 1 :]


def env_pairs(arguments):
    """ENV's key=value pairs."""
    return dict(pair.split("=", 1) for pair in shlex.split(arguments))


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def ensure_debootstrap():
    if shutil.which("debootstrap"):
        return
    say("installing debootstrap")
    run(["apt-get", "update", "-qq"], stdout=subprocess.DEVNULL)
    run(["apt-get", "install", "-y", "-qq", "debootstrap"], stdout=subprocess.DEVNULL)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def psql(admin_url, statement):
    run(["psql", "-w", "-q", admin_url, "-c", statement], stdout=subprocess.DEVNULL)


def http_status(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status
    except Exception:  # noqa: BLE001 - not answering yet is the same as any error here
        return None


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    binary, admin_url, redis_url = sys.argv[1:]
    stage = runtime_stage(DOCKERFILE)
    ensure_debootstrap()
    work = Path(tempfile.mkdtemp(prefix="outflank-image."))
    rootfs, readonly = work / "rootfs", work / "readonly"
    database = f"outflank_image_{os.getpid()}"
    port = free_port()
    mounted = []
    node = None
    psql(admin_url, f'CREATE DATABASE "{database}"')
    try:
        say("making the base file system (debootstrap, bookworm, minbase)")
        run(
            ["debootstrap", "--variant=minbase", "bookworm", str(rootfs), "http://deb.debian.org/debian"],
            stdout=subprocess.DEVNULL,
        )
        shutil.copy("/etc/resolv.conf", rootfs / "etc" / "resolv.conf")

        env, workdir, user, healthcheck = {}, "/", "0:0", None
        for keyword, arguments in stage:
            if keyword == "RUN":
                say(f"RUN {arguments[:70]}...")
                run(["chroot", str(rootfs), "/bin/sh", "-c", arguments], stdout=subprocess.DEVNULL)
            elif keyword == "COPY":
                source, target = arguments.split()[-2:]
                if "--from=build" not in arguments or not target.endswith("/outflank"):
                    raise SystemExit(f"image: no stand-in for COPY {arguments}")
                destination = rootfs / target.lstrip("/")
                shutil.copy(binary, destination)
                os.chmod(destination, 0o755)
            elif keyword == "ENV":
                env.update(env_pairs(arguments))
            elif keyword == "WORKDIR":
                workdir = arguments
            elif keyword == "USER":
                user = arguments
            elif keyword == "HEALTHCHECK":
                healthcheck = json.loads(arguments[arguments.index("CMD") + 3 :].strip())
            elif keyword not in ("ARG", "VOLUME", "EXPOSE", "STOPSIGNAL", "ENTRYPOINT"):
                raise SystemExit(f"image: unexpected {keyword} in the runtime stage")
        if healthcheck is None:
            raise SystemExit("image: the runtime stage has no HEALTHCHECK")

        # As in docker-compose.yml: read-only root, /tmp a tmpfs, PostgreSQL and Redis.
        readonly.mkdir()
        run(["mount", "--bind", str(rootfs), str(readonly)])
        mounted.append(readonly)
        run(["mount", "-o", "remount,ro,bind", str(readonly)])
        run(["mount", "-t", "tmpfs", "tmpfs", str(readonly / "tmp")])
        mounted.append(readonly / "tmp")
        env.update(
            OUTFLANK_ADDR=f"127.0.0.1:{port}",
            DATABASE_URL=f"{admin_url.rsplit('/', 1)[0]}/{database}",
            REDIS_URL=redis_url,
            OUTFLANK_REDIS_PREFIX=f"outflank-image-{os.getpid()}",
            OUTFLANK_SESSION_SECRET=os.urandom(24).hex(),
            RUST_LOG="warn",
        )
        env_args = [f"{key}={value}" for key, value in env.items()]
        in_image = ["chroot", f"--userspec={user}", str(readonly), "/usr/bin/env", "-i"]
        start = f"cd {shlex.quote(workdir)} && exec /usr/local/bin/outflank"
        node = subprocess.Popen(in_image + env_args + ["/bin/sh", "-c", start])
        deadline = time.monotonic() + 30
        while http_status(f"http://127.0.0.1:{port}/readyz") != 200:
            if node.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("image: the node did not become ready")
            time.sleep(0.25)
        say(f"the node runs as {user} on a read-only root, ready on PostgreSQL and Redis")

        probe = subprocess.run(in_image + env_args + healthcheck, timeout=10)
        if probe.returncode != 0:
            raise SystemExit(f"image: the HEALTHCHECK command failed ({probe.returncode})")
        say("the HEALTHCHECK command passes")

        node.terminate()
        started = time.monotonic()
        node.wait(timeout=GRACE_SECONDS)
        say(f"SIGTERM stopped the node in {time.monotonic() - started:.1f} s")
        node = None
    finally:
        if node is not None:
            node.kill()
            node.wait()
        for path in reversed(mounted):
            subprocess.run(["umount", str(path)], check=False)
        shutil.rmtree(work, ignore_errors=True)
        psql(admin_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


if __name__ == "__main__":
    main()
