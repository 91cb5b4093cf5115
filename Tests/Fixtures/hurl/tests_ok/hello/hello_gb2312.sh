#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/hello/hello_gb2312.hurl
