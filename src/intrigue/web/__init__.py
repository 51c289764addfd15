"""The card table: a small Starlette app serving the JSON API and the static page.

Nothing is built at import time; :func:`intrigue.web.app.create_app` builds the
app from :class:`intrigue.web.settings.Settings` and a
:class:`intrigue.web.store.Store`.
"""
