#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/rawbytes/rawbytes.hurl
