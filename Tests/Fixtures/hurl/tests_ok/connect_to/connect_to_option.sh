#!/bin/bash
set -Eeuo pipefail

hurl --verbose tests_ok/connect_to/connect_to_option.hurl
