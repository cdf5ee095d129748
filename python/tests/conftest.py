"""Fixtures: a release server started on a free port (BOTIFARRA_SERVER, or
target/release/botifarra of this checkout), its rate limits off."""

import http.client
import json
import os
import pathlib
import socket
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Client:
    """A minimal JSON client over one kept-alive connection."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body)
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError):
            # The server closed the idle kept-alive connection: open another.
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
        payload = resp.read()
        return resp.status, (json.loads(payload) if payload else None)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def server_binary():
    binary = pathlib.Path(os.environ.get("BOTIFARRA_SERVER", ROOT / "target/release/botifarra"))
    assert binary.is_file(), (
        f"no server binary at {binary}: build it (cargo build --release --locked) "
        "or set BOTIFARRA_SERVER"
    )
    return binary


def start(command, port, what):
    """Starts `command` and waits until `port` takes connections."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"{what} exited: {proc.stderr.read().decode()}")
            time.sleep(0.05)
    proc.kill()
    pytest.fail(f"{what} did not come up on port {port}")


def start_server(port, *args):
    """The release server on `port`, with extra arguments (a store, limits)."""
    command = [str(server_binary()), "serve", "--bind", f"127.0.0.1:{port}", *args]
    return start(command, port, "the server")


def stop(proc):
    """Stops a process; killed after 2 s (a server shutting down gracefully
    waits for the open event streams, up to their next keep-alive)."""
    proc.terminate()
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def server():
    port = free_port()
    proc = start_server(
        port, "--rate-limit-per-ip", "0", "--rate-limit-per-token", "0",
        "--rate-limit-per-match", "0", "--creates-per-minute", "0",
    )
    try:
        yield Client(port)
    finally:
        stop(proc)
