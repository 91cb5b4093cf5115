#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/header/headers.hurl
