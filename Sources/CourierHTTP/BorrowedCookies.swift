import CCurl

/// A jar's chosen cookies lent to one transfer (``HTTPRequestOptions/onlyCookies``), and given back.
///
/// libcurl sends what a cookie engine holds, with no filter by name, so the transfer gets an
/// engine of its own holding only the chosen cookies (the jar's lines as `CURLINFO_COOKIELIST`
/// gives them, each imported whole with `CURLOPT_COOKIELIST`): which apply to a URL, and to each
/// redirect, is still libcurl's RFC 6265 matching. When the transfer ends, its engine's cookies
/// go back into the jar, the server's changes included; one it deleted is deleted there too.
/// Driver thread only, like the handle.
struct BorrowedCookies {
    let share: UnsafeMutableRawPointer
    /// The lines lent, in libcurl's Netscape format.
    let lent: [String]

    /// Detaches `h` from the jar and gives it an engine holding the jar's cookies named in `names`.
    static func lend(_ h: UnsafeMutableRawPointer, from share: UnsafeMutableRawPointer, names: Set<String>) -> BorrowedCookies {
        _ = courier_easy_setopt_share(h, share)
        let lines = cookieLines(h).filter { Line($0).map { names.contains($0.name) } ?? false }
        _ = courier_easy_setopt_share(h, nil)
        // An empty file name starts an engine of the handle's own without reading a file.
        _ = "".withCString { courier_easy_setopt_string(h, CURLOPT_COOKIEFILE, $0) }
        for line in lines { _ = line.withCString { courier_easy_setopt_string(h, CURLOPT_COOKIELIST, $0) } }
        return BorrowedCookies(share: share, lent: lines)
    }

    /// Puts the transfer's cookies into the jar (what the server set or changed), and deletes
    /// from the jar those lent that the server deleted (the same cookie, expired).
    func giveBack(_ h: UnsafeMutableRawPointer) {
        let now = Self.cookieLines(h)
        _ = courier_easy_setopt_share(h, share)
        let kept = Set(now.compactMap { Line($0)?.identity })
        for line in now { _ = line.withCString { courier_easy_setopt_string(h, CURLOPT_COOKIELIST, $0) } }
        for line in lent {
            guard let parsed = Line(line), !kept.contains(parsed.identity) else { continue }
            _ = parsed.expired.withCString { courier_easy_setopt_string(h, CURLOPT_COOKIELIST, $0) }
        }
    }

    /// The handle's cookies, one Netscape line each.
    private static func cookieLines(_ h: UnsafeMutableRawPointer) -> [String] {
        var list: UnsafeMutablePointer<curl_slist>?
        guard courier_easy_getinfo_slist(h, CURLINFO_COOKIELIST, &list) == CURLE_OK, let head = list else { return [] }
        defer { courier_slist_free_all(head) }
        var lines: [String] = []
        var node: UnsafeMutablePointer<curl_slist>? = head
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }

    /// `domain  subdomains  path  secure  expires  name  value`, tab-separated (the domain
    /// prefixed `#HttpOnly_` for an HttpOnly cookie).
    private struct Line {
        var fields: [Substring]

        init?(_ text: String) {
            fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 7 else { return nil }
        }

        var name: String { String(fields[5]) }
        /// What makes two lines the same cookie (RFC 6265 §5.3 step 11): domain, path and name.
        var identity: String { "\(fields[0].replacing("#HttpOnly_", with: ""))\t\(fields[2])\t\(fields[5])" }
        /// The same cookie, expired long ago: libcurl replaces the jar's and never sends it.
        var expired: String {
            var copy = fields
            copy[4] = "1"
            return copy.joined(separator: "\t")
        }
    }
}
