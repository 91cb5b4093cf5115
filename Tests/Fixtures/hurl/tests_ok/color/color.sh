#!/bin/bash
set -Eeuo pipefail

hurl --color --verbose tests_ok/color/color.hurl
