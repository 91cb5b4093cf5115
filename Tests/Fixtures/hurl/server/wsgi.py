# The WSGI entry point scripts/test-servers runs Hurl's test app with, under gunicorn:
#
#   gunicorn --chdir Tests/Fixtures/hurl/server wsgi:application
#
# Hurl's own server.py does the same with waitress on 127.0.0.1:8000. app.py (Hurl's, unchanged)
# imports every tests_*/**/*.py relative to the working directory, as modules named by their path
# (tests_ok.assert.assert_body, ...), and each of them registers its routes on the one Flask app
# with `from app import app`. So the fixture root (the parent of this folder) must be the working
# directory and on sys.path, and this folder on sys.path for `app`.
#
# app.load_tests() prints and skips a module that fails with ImportError; here that stops the
# start instead, so a case whose endpoints are missing shows at once rather than as a 404 later.
import glob
import os
import sys

SERVER = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SERVER)
for folder in (SERVER, ROOT):
    if folder not in sys.path:
        sys.path.insert(0, folder)
os.chdir(ROOT)

from app import app, load_tests  # noqa: E402 (after the path set-up)

load_tests()

expected = sorted(
    path[: -len(".py")].replace(os.path.sep, ".")
    for path in glob.glob("tests_*/**/*.py", recursive=True)
)
not_loaded = [name for name in expected if name not in sys.modules]
if not_loaded:
    raise RuntimeError("hurl test app: case modules not loaded: " + ", ".join(not_loaded))

application = app
