#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/cookie/cookie_storage.hurl
