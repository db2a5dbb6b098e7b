#ifndef COURIER_CCOMPRESSION_H
#define COURIER_CCOMPRESSION_H

// zlib (gzip, deflate) and libbrotlidec (br), loaded at run time.
//
// Only a step that asks for a body's raw bytes (`bytes: { raw: true }`) has Courier undo the
// Content-Encoding itself; every other request keeps libcurl's decoding. Like libcurl (see
// CCurl.h), neither library is linked: a run that never asks for raw bytes never loads them,
// building needs no -dev package (the few declarations used are below), and a machine without
// one gets a message naming the package, not a loader error at start-up.

#include <stddef.h>
#include <stdint.h>

/// The codings a decoder undoes.
typedef enum {
    /// gzip (RFC 1952), concatenated members included.
    courier_coding_gzip = 0,
    /// deflate as RFC 9110 means it: zlib-wrapped (RFC 1950).
    courier_coding_zlib = 1,
    /// deflate as some servers send it: raw RFC 1951 data without the zlib wrapper.
    courier_coding_raw_deflate = 2,
    /// Brotli (RFC 7932).
    courier_coding_brotli = 3,
} courier_coding;

/// What a call of `courier_decoder_run` ended with.
typedef enum {
    /// All input was taken and the stream goes on: give more input (or it was cut short).
    courier_decode_needs_input = 0,
    /// The output buffer is full: give more room and call again.
    courier_decode_needs_output = 1,
    /// The stream ended; `*avail_in` bytes after its end were not taken.
    courier_decode_done = 2,
    /// The data is corrupt; `courier_decoder_error` says how.
    courier_decode_error = 3,
} courier_decode_status;

typedef struct courier_decoder courier_decoder;

/// Loads the library the coding needs, once (thread-safe). Returns 0, or -1 with a message
/// naming the library and its Debian package in `error`.
int courier_coding_load(courier_coding coding, char *error, size_t error_size);

/// A decoder for `coding`, whose library must have loaded; NULL when out of memory.
courier_decoder *courier_decoder_new(courier_coding coding);

/// Decodes from `*next_in` (`*avail_in` bytes) into `*next_out` (`*avail_out` bytes),
/// advancing both.
courier_decode_status courier_decoder_run(courier_decoder *decoder, const uint8_t **next_in, size_t *avail_in,
                                          uint8_t **next_out, size_t *avail_out);

/// Why the last run failed, in the library's words (never NULL).
const char *courier_decoder_error(const courier_decoder *decoder);

void courier_decoder_free(courier_decoder *decoder);

#endif
