#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/url/url.hurl
