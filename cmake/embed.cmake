# SPDX-License-Identifier: Apache-2.0
# Turn a text file into a C array: cmake -DIN=... -DOUT=... -DNAME=... -P embed.cmake
# The array is NUL-terminated; NAME_len excludes the NUL.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR len "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}.tmp"
  "/* generated from ${IN} by cmake/embed.cmake; do not edit */\n"
  "#include <stddef.h>\n"
  "const char ${NAME}[] = {\n${body}0x00};\n"
  "const size_t ${NAME}_len = ${len};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
