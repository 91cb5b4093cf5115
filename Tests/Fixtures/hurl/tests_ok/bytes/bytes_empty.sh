#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/bytes/bytes_empty.hurl
