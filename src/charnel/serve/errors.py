"""Datasette's error pages without its error log: a bad request is the visitor's mistake.

Datasette's own handler prints a traceback for every error, 404s included (and from a 404
with no exception it fails itself and answers 500). This one answers the same pages and logs
a traceback only for a server error (5xx), which is the server's fault.
"""

from __future__ import annotations

import logging

from datasette import hookimpl
from datasette.utils.asgi import Base400, Response
from datasette.views.base import DatasetteError
from markupsafe import Markup

from charnel.diagnostics import printable

DEFAULT_HANDLER = "datasette.handle_exception"
log = logging.getLogger("charnel.serve")


class _Printable(logging.Filter):
    """A logged line quotes the request (its path, an error about its SQL): its control
    characters are written as \\x1b (`diagnostics.printable`), so a request cannot send
    escape sequences to the terminal that shows the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = printable(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = printable(logging.Formatter().formatException(record.exc_info))
        return True


log.addFilter(_Printable())


def install(pm) -> None:
    """Put this handler in place of Datasette's (once per process)."""
    import sys

    if pm.get_plugin(DEFAULT_HANDLER) is not None:
        pm.unregister(name=DEFAULT_HANDLER)
    if not pm.is_registered(sys.modules[__name__]):
        pm.register(sys.modules[__name__], name="charnel-errors")


def classify(exception: BaseException) -> tuple[int, str, str | None, dict]:
    """(status, message, title, extra fields) of an exception, as Datasette shows them."""
    if isinstance(exception, Base400):
        return exception.status, str(exception.args[0] if exception.args else ""), None, {}
    if isinstance(exception, DatasetteError):
        message = exception.message
        if exception.message_is_html:
            message = Markup(message)
        return exception.status, message, exception.title, dict(exception.error_dict)
    return 500, str(exception), None, {}


@hookimpl(trylast=True)
def handle_exception(datasette, request, exception):
    async def inner():
        status, message, title, info = classify(exception)
        if status >= 500:
            log.error("%s %s", request.method, request.path, exc_info=exception)
        info.update({"ok": False, "error": message, "status": status, "title": title})
        if request.path.split("?")[0].endswith(".json"):
            return Response.json(info, status=status)
        template = datasette.jinja_env.select_template([f"{status}.html", "error.html"])
        html = await template.render_async(
            dict(
                info,
                urls=datasette.urls,
                app_css_hash=datasette.app_css_hash(),
                menu_links=lambda: [],
            )
        )
        return Response.html(html, status=status)

    return inner
