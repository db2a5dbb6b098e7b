/// The version sent in `User-Agent` and printed by `courier --version`.
public enum CourierHTTPVersion {
    public static let string = "0.1.0"
}
