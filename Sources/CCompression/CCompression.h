#ifndef COURIER_CCOMPRESSION_H
#define COURIER_CCOMPRESSION_H

// The parts of zlib's and libbrotlidec's ABIs Courier uses, as types only: the libraries are
// loaded at run time (Sources/CourierHTTP/CompressionLibraries.swift), like libcurl, and only
// when a step asks for a body's raw bytes (`bytes: { raw: true }`). Declared here rather than
// by including zlib.h and brotli/decode.h, so building needs no -dev package.
//
// Types only, no C file: a second clang-compiled translation unit (DWARF 5, beside Swift's
// DWARF 4 and CCurl's loader.c) makes valgrind 3.19 give up reading the binary ("possibly
// corrupted debuginfo file"), which breaks `make guard`.

#include <stddef.h>
#include <stdint.h>

/// zlib.h's z_stream, unchanged since zlib 1.0. inflateInit2_ is given sizeof(z_stream) and
/// the major version, and refuses (Z_VERSION_ERROR) a library whose layout differs.
typedef struct {
    const uint8_t *next_in;
    unsigned int avail_in;
    unsigned long total_in;
    uint8_t *next_out;
    unsigned int avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *zalloc;
    void *zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} courier_z_stream;

typedef int (*courier_inflate_init2_fn)(courier_z_stream *stream, int window_bits, const char *version, int stream_size);
typedef int (*courier_inflate_fn)(courier_z_stream *stream, int flush);
typedef int (*courier_inflate_end_fn)(courier_z_stream *stream);
typedef int (*courier_inflate_reset_fn)(courier_z_stream *stream);

/// brotli/decode.h: the state is opaque; results and error codes are ints.
typedef void *(*courier_brotli_create_fn)(void *alloc, void *free, void *opaque);
typedef void (*courier_brotli_destroy_fn)(void *state);
typedef int (*courier_brotli_decompress_stream_fn)(void *state, size_t *available_in, const uint8_t **next_in,
                                                   size_t *available_out, uint8_t **next_out, size_t *total_out);
typedef int (*courier_brotli_error_code_fn)(const void *state);
typedef const char *(*courier_brotli_error_string_fn)(int code);

#endif
