"""The Python the table's tablet runs offline (issue 34), in Pyodide: pure (the standard library
and ``dealer_assist.rules`` only), shipped to the tablet in the engine bundle
(``web/tablet_bundle.py``, ``GET /tablet/engine.zip``) and called from ``static/engine-worker.js``
through :func:`dealer_assist.tablet.offline.handle`."""
