/// The page's one inline style sheet and one inline script, and the
/// Content-Security-Policy that allows exactly them.
///
/// The script is allowed by its hash (no `'unsafe-inline'` for scripts): a
/// `<script>` that escaping missed still would not run. Styles need
/// `'unsafe-inline'` because the timing bars size their segments with `style`
/// attributes, which hashes cannot allow; everything in them is a number Courier computed.
enum HTMLAssets {
    static let style = """
        :root{--ok:#1a7f37;--fail:#cf222e;--err:#9a3412;--skip:#6e7781;--line:#d0d7de;--soft:#f6f8fa}
        *{box-sizing:border-box}
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
        header{position:sticky;top:0;z-index:1;background:#fff;border-bottom:1px solid var(--line);padding:10px 18px}
        h1{font-size:18px;margin:0 0 4px}
        main{padding:10px 18px 40px}
        .counts span{margin-right:14px;font-weight:600}
        .counts .n-ok{color:var(--ok)}.counts .n-fail{color:var(--fail)}.counts .n-err{color:var(--err)}.counts .n-skip{color:var(--skip)}
        .meta{color:#57606a;font-size:12px}
        .recap{margin:6px 0 0;padding-left:22px;max-height:30vh;overflow:auto;font-size:13px}.recap a{color:var(--fail)}
        .banner{margin:6px 0 0;padding:4px 8px;background:#fff8c5;border:1px solid #d4a72c;border-radius:4px}
        nav{margin-top:6px}nav button{font:inherit;font-size:12px;margin-right:6px;padding:2px 8px;border:1px solid var(--line);border-radius:4px;background:var(--soft);cursor:pointer}
        details{border-left:3px solid var(--line);margin:4px 0;padding-left:8px}
        details.ok{border-color:var(--ok)}details.failed{border-color:var(--fail)}details.errored{border-color:var(--err)}details.skipped{border-color:var(--skip)}
        summary{cursor:pointer;padding:2px 0}
        .wf>summary{font-size:15px;font-weight:600}
        .b{display:inline-block;min-width:46px;text-align:center;font-size:11px;font-weight:700;color:#fff;border-radius:3px;padding:0 4px;margin-right:6px}
        .ok>summary .b{background:var(--ok)}.failed>summary .b{background:var(--fail)}.errored>summary .b{background:var(--err)}.skipped>summary .b{background:var(--skip)}
        .dim{color:#57606a;font-weight:400;font-size:12px;margin-left:8px}
        pre{margin:4px 0;padding:6px 8px;background:var(--soft);border:1px solid var(--line);border-radius:4px;white-space:pre-wrap;word-break:break-all;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;max-height:420px;overflow:auto}
        .diag pre{background:#ffebe9;border-color:#ff8182}
        .retry{color:var(--err);font-size:12px}
        .attempt{margin:6px 0 10px}
        .attempt h4{margin:6px 0 2px;font-size:13px}
        .hop{font-size:12px;color:#57606a;margin:2px 0}
        .checks{list-style:none;margin:2px 0;padding:0;font:12px/1.4 ui-monospace,monospace}
        .checks .pass::before{content:"\\2713  ";color:var(--ok)}.checks .fail::before{content:"\\2717  ";color:var(--fail)}
        .tb{display:flex;height:10px;min-width:4px;margin:4px 0 0;border-radius:2px;overflow:hidden;background:#eaeef2}
        .tb i{display:block;height:100%}
        .dns{background:#8250df}.con{background:#bf8700}.tls{background:#0969da}.ttfb{background:#1a7f37}.xfer{background:#57606a}
        .tl{font-size:11px;color:#57606a}
        .tl b{display:inline-block;width:8px;height:8px;margin:0 3px 0 8px;border-radius:1px}
        .only-problems details.ok,.only-problems details.skipped{display:none}
        """

    static let script = """
        document.querySelector('nav').hidden=false;\
        document.querySelectorAll('nav button').forEach(function(b){b.addEventListener('click',function(){\
        var a=b.getAttribute('data-act');\
        if(a==='problems'){document.body.classList.toggle('only-problems');return;}\
        document.querySelectorAll('details').forEach(function(d){d.open=(a==='open');});});});
        """

    /// `'sha256-…'` of ``script``; a test recomputes it.
    static let scriptHash = "'sha256-XskZ6LxNJBe1c7YIkRJDgMwlJZfKwpI6XuPuAqDCnng='"

    static var contentSecurityPolicy: String {
        "default-src 'none'; style-src 'unsafe-inline'; script-src \(scriptHash); base-uri 'none'; form-action 'none'"
    }
}
