#!/bin/bash
set -Eeuo pipefail

hurl --verbose tests_ok/skip.hurl
