"""What the web tests share: an app over a temporary data directory, and a real server."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LITTLE_KLONDIKE = str(ROOT / "docs" / "examples" / "little-klondike.yaml")
#: a Tabby Cat (sets leave by themselves) deal the solver wins in 96 moves, fast
QUICK_WIN = ("tabbycat-autoremove", 115)


def in_process(kind: str, variant_path: str, argument: Any) -> int:
    """The deal finder's search, run in the calling thread (no worker process)."""
    from patience.web.dealfinder import search

    return search(kind, variant_path, argument)


def make_app(data: Path, names=(LITTLE_KLONDIKE,), runner=in_process, wait: float = 10.0,
             **options: Any):
    from patience.web.app import create_app
    from patience.web.dealfinder import DealFinder

    finder = DealFinder(data / "web", runner=runner, wait=wait, positions=20_000, attempts=50)
    options.setdefault("hint_budget", (50_000, 5.0))
    options.setdefault("review_budget", (20_000, 5.0))
    return create_app(list(names), allowed_hosts=["testserver"], finder=finder, **options)


def new_game(client: Any, variant: str = "tabbycat", number: int = 1) -> dict[str, Any]:
    """The snapshot of a new game of deal ``number``, asked of ``client`` (a TestClient)."""
    response = client.post("/api/games", json={"variant": variant, "deal": "number",
                                               "number": number})
    assert response.status_code == 201, response.text
    return response.json()["snapshot"]


def act(client: Any, snap: dict[str, Any], **body: Any) -> Any:
    """The answer to an action on the game of ``snap``, made at its version."""
    return client.post(f"/api/games/{snap['game']}/actions",
                       json={"version": snap["version"], **body})


class LiveServer:
    """uvicorn serving ``app`` on a free loopback port, in a thread."""

    def __init__(self, app: Any, port: int = 0) -> None:
        import uvicorn

        self.app = app
        # IPPROTO_TCP, not 0: asyncio turns Nagle off only on sockets that say TCP
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", port))
        self.socket.listen(64)
        self.port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning",
                                                    access_log=False))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()
