#!/bin/bash
set -Eeuo pipefail
hurl tests_ok/gb2312/gb2312.hurl
