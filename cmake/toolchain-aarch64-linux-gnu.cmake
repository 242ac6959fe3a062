# SPDX-License-Identifier: Apache-2.0
# Cross-compiling rtconform for 64-bit Arm Linux with Debian's cross compiler
# (gcc-aarch64-linux-gnu) and the arm64 libxml2/jansson development packages
# installed through multiarch (docs/install.md has the packages, also those
# -DRTC_STATIC=ON needs):
#   cmake -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake \
#         -DRTC_TESTS=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(RTC_CROSS_TRIPLET aarch64-linux-gnu)
set(RTC_DEB_ARCH arm64) # the Debian package's architecture (cmake/install.cmake)
set(CMAKE_C_COMPILER ${RTC_CROSS_TRIPLET}-gcc)
set(CMAKE_ASM_COMPILER ${RTC_CROSS_TRIPLET}-gcc)

# Libraries and headers of the target only; programs of the build machine.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE ${RTC_CROSS_TRIPLET})

# pkg-config reads the target's .pc files (Debian multiarch puts them in
# /usr/lib/aarch64-linux-gnu/pkgconfig), never the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${RTC_CROSS_TRIPLET}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
