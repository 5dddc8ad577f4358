#!/bin/sh
set -e
g++ -std=c++17 -O1 -o agent main.cpp
