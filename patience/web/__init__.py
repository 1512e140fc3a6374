"""Playing in a web browser: ``patience serve`` (needs the ``web`` extra).

``snapshot`` makes what the page is sent from a Session (never a face-down card or the
stock's cards); ``store`` keeps each browser's game in memory and on disk; ``dealfinder``
finds daily and winnable deals in a worker process; ``app`` is the Starlette app and its
JSON API; ``static/`` holds the page (plain HTML, CSS and JavaScript, no build step).
Only ``app`` imports Starlette.
"""
