/// Courier's product version: sent in `User-Agent` and printed by `courier --version`.
public enum CourierVersion {
    public static let string = "0.1.0"
}

/// The old name, from when only the HTTP layer used it.
@available(*, deprecated, renamed: "CourierVersion")
public typealias CourierHTTPVersion = CourierVersion
