"""``patience serve``: play any variant in a web browser (needs the ``web`` extra)."""

from __future__ import annotations

import click

from patience.arguments import PORT
from patience.cli.common import fail
from patience.cli.main import main
from patience.cli.numbers import Number
from patience.distribution import install_hint
from patience.errors import PatienceError


@main.command()
@click.argument("variants", nargs=-1, metavar="[VARIANT|FILE]...")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. Anything but a loopback address lets other "
                   "machines play (and see your games).")
@click.option("--port", type=Number(PORT), default=8000, show_default=True,
              help="The port (0: any free one).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
def serve(variants: tuple[str, ...], host: str, port: int, open_browser: bool) -> None:
    """Serve the game on http://HOST:PORT/: every shipped variant, plus the variant files
    named (the first one named is the page's default). Ctrl-C stops the server; games are
    saved after every move and go on after a restart."""
    import socket  # here, not at the top: other commands start without them
    import threading
    import webbrowser

    try:
        import uvicorn

        from patience.web.app import create_app
    except ImportError as error:
        fail(f"the web server needs Starlette and uvicorn ({error}); install them with "
             f"{install_hint('web')}")
    try:
        everywhere = host in ("0.0.0.0", "::", "")  # reached by any name: answer to any
        app = create_app(variants, allowed_hosts=["*"] if everywhere else [host], warm=True)
    except PatienceError as error:
        fail(str(error))
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on
    # sockets that say they are TCP, and with it on every answer waits ~40 ms for an ACK
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror}"
             + (" (try another --port, or --port 0)" if port else ""))
    listener.listen(64)
    port = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    key = app.state.server.default
    url = f"http://{shown}:{port}/?variant={key}"
    click.echo(f"patience: playing at {url} (Ctrl-C stops)", err=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo("warning: listening beyond this machine: anyone who can reach it can "
                   "play and read the games served here", err=True)
    if open_browser:
        threading.Timer(0.3, webbrowser.open, [url]).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    try:
        server.run(sockets=[listener])
    finally:
        app.state.server.finder.close()
