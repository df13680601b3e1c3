//! The lines between the client and the SDK's server: each line the
//! client sends that is not JSON is answered, as JSON-RPC asks, with a
//! parse error (-32700, `id` null) instead of the silence the SDK keeps;
//! every other line goes to the server as it came. The server's lines and
//! those answers are written to stdout by one task, a whole line at a
//! time, so that they never interleave.

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// Bytes each side's in-process pipe holds before its writer waits.
const PIPE_BYTES: usize = 256 * 1024;

/// Starts the two tasks between `input` and `output` on the current
/// runtime; returns the ends the server reads and writes, and the writing
/// task, which ends once the server's end is dropped and all it wrote is
/// out (await it before the runtime goes).
pub fn frame(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> (DuplexStream, DuplexStream, tokio::task::JoinHandle<()>) {
    let (server_in, mut to_server) = tokio::io::duplex(PIPE_BYTES);
    let (server_out, from_server) = tokio::io::duplex(PIPE_BYTES);
    let (answers, mut parse_errors) = mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        let mut lines = BufReader::new(input).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if line.trim().is_empty() {
                continue;
            }
            if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&line) {
                let answer = json!({"jsonrpc": "2.0", "id": null,
                    "error": {"code": -32700, "message": format!("Parse error: {e}")}});
                let _ = answers.send(answer.to_string());
                continue;
            }
            let line = line + "\n";
            if to_server.write_all(line.as_bytes()).await.is_err() {
                break;
            }
        }
        // The client is gone: the server sees its input end.
        let _ = to_server.shutdown().await;
    });
    let written = tokio::spawn(async move {
        let mut output = output;
        let mut lines = BufReader::new(from_server).lines();
        let (mut server_open, mut errors_open) = (true, true);
        loop {
            let line = tokio::select! {
                line = lines.next_line(), if server_open => match line {
                    Ok(Some(line)) => line,
                    _ => {
                        server_open = false;
                        continue;
                    }
                },
                answer = parse_errors.recv(), if errors_open => match answer {
                    Some(answer) => answer,
                    None => {
                        errors_open = false;
                        continue;
                    }
                },
                else => break,
            };
            let line = line + "\n";
            if output.write_all(line.as_bytes()).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    (server_in, server_out, written)
}
