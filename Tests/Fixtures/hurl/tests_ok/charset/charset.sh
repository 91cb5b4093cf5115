#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/charset/charset.hurl
