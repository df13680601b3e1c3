//! `scout mcp`: the request layer ([`crate::request`]) as a Model
//! Context Protocol server over stdio, on the official SDK (`rmcp`), for
//! harnesses that give tools to a model only through MCP.
//!
//! Each tool call becomes one request of the request layer, answered in
//! this process, on a thread of the runtime's blocking pool, which works
//! in the call's root while it serves it: the same code answers it as
//! answers `scout call`, with the connection's session ([`Served`]), so
//! calls run concurrently, each with its own memory and its own rg.
//! Cancelling a call stops its rg (each rg of a call leads a process
//! group of its own, [`Cancel`]); a call that panics is an error result,
//! and the server goes on. A call's working directory is the first root,
//! its thread's own (a call may not name another: [`tools`]); the
//! process's stays where the server started. The result's `content` is
//! the text the command prints; `structuredContent` is the answer's JSON
//! ([`tools`] keeps the list of tools small).
//!
//! Paths resolve against the client's roots (`roots/list`) when it
//! offers them, else the server's working directory; a path outside them
//! (by `..` or a symlink) is an error naming them ([`roots`]). Nothing is
//! written to stdout but protocol messages: the answers are made in
//! memory; what rg says on stderr goes to the server's stderr.

mod framing;
pub mod roots;
pub mod tools;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use tokio::sync::Mutex;

use crate::exit::ExitStatus;
use crate::request::{self, Served};
use crate::rg::Cancel;
use roots::Roots;

/// How often a call that asked for progress hears that it is still
/// running.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Serves MCP on stdin and stdout until the client closes the connection;
/// with `allow_edit`, the edit tool too.
pub fn run(allow_edit: bool) -> Result<ExitStatus> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the MCP server's runtime")?;
    // The process's stdout is locked by `main` for the other commands'
    // buffered pages; the protocol is written to a duplicate of its
    // descriptor instead, with nothing buffered before it.
    let stdout = rustix::io::dup(std::io::stdout()).context("duplicating stdout")?;
    let stdout = tokio::fs::File::from_std(std::fs::File::from(stdout));
    runtime.block_on(async {
        let server = Server::new(allow_edit)?;
        let (input, output, written) = framing::frame(tokio::io::stdin(), stdout);
        let service = server
            .serve((input, output))
            .await
            .context("the MCP handshake failed")?;
        service.waiting().await.context("serving MCP")?;
        // Every answer out before the process ends.
        let _ = written.await;
        Ok(ExitStatus::Shown)
    })
}

/// One connection's server.
#[derive(Clone)]
struct Server {
    /// The session memory of this connection (`SCOUT_SESSION_ID` of a
    /// `scout call`).
    session: String,
    /// The working directory the server was started in: the root when the
    /// client offers none.
    cwd: PathBuf,
    /// The client's roots, once asked; `None` until then, or after the
    /// client said they changed.
    roots: Arc<Mutex<Option<Roots>>>,
    /// `--allow-edit`: the edit tool is offered and served.
    allow_edit: bool,
}

impl Server {
    fn new(allow_edit: bool) -> Result<Server> {
        let cwd = std::env::current_dir().context("reading the working directory")?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        Ok(Server {
            session: format!("mcp-{}-{nanos:x}", std::process::id()),
            cwd,
            roots: Arc::new(Mutex::new(None)),
            allow_edit,
        })
    }

    /// The roots paths resolve against: the client's, asked once, else
    /// the working directory.
    #[allow(deprecated)] // roots/list: deprecated by a protocol revision many clients predate
    async fn roots(&self, peer: &rmcp::Peer<RoleServer>) -> Roots {
        let mut known = self.roots.lock().await;
        if let Some(roots) = &*known {
            return roots.clone();
        }
        let offered = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        let mut found = Roots::new(vec![self.cwd.clone()]);
        if offered {
            match peer.list_roots().await {
                Ok(list) => {
                    let uris: Vec<String> = list.roots.iter().map(|r| r.uri.to_string()).collect();
                    if let Some(roots) = Roots::from_uris(&uris) {
                        found = roots;
                    }
                }
                Err(e) => eprintln!(
                    "scout mcp: roots/list failed ({e}); using {}",
                    self.cwd.display()
                ),
            }
        }
        *known = Some(found.clone());
        found
    }

    /// Answers one tool call on a thread of the runtime's blocking pool,
    /// in its root, its rg stopped when the client cancels the call.
    async fn call(
        &self,
        tool: &tools::ToolSpec,
        arguments: Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let roots = self.roots(&context.peer).await;
        // Only the tool's own parameters: a request field it does not
        // list would change what the call is (`mode`, `tool`) or where
        // its paths resolve (`cwd`, out from under the roots' check).
        if let Some(name) = arguments.keys().find(|name| !tool.takes(name)) {
            let names: Vec<&str> = tool.params.iter().map(|(name, ..)| *name).collect();
            let message = format!(
                "unknown field {name:?}: the {} tool takes {}",
                tool.name,
                names.join(", ")
            );
            return Ok(error_result(&message, None));
        }
        // Its paths are confined to the roots by the request layer, which
        // reads each field as the command will (`Served::roots`).
        let request = tool.request(&arguments);
        let session = match context.meta.get("sessionID").and_then(Value::as_str) {
            Some(id) => format!("{}-{id}", self.session),
            None => self.session.clone(),
        };
        let cancel = Cancel::default();
        let served = Served {
            cwd: Some(roots.first().to_path_buf()),
            session: Some(session),
            cancel: Some(cancel.clone()),
            as_value: true,
            roots: Some(roots.paths().to_vec()),
        };
        // Stops the call's rg when the call ends early: cancelled, or the
        // server going away.
        let _stop = StopOnDrop(cancel);
        // On a thread of the runtime's blocking pool, which the call moves
        // to its root first (`served.cwd`): a pool thread keeps the
        // directory of the last call it ran, and every call sets its own.
        let answer = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                request::answer_value(request, &crate::dirs::process_env, &served)
            }))
        });
        tokio::pin!(answer);
        let started = Instant::now();
        let progress = context.meta.get_progress_token();
        // The first tick a period from now: an interval's first tick,
        // "immediate", waits for the timer wheel's next millisecond, and a
        // call awaiting it answered up to 1 ms late.
        let mut tick =
            tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
        let answer = loop {
            tokio::select! {
                _ = context.ct.cancelled() => {
                    return Err(McpError::internal_error("cancelled", None));
                }
                answer = &mut answer => break answer,
                _ = tick.tick() => {
                    if let Some(token) = progress.clone() {
                        let seconds = started.elapsed().as_secs();
                        let note = ProgressNotificationParam::new(token, seconds as f64)
                            .with_message(format!("{} still running: {seconds} s", tool.name));
                        let _ = context.peer.notify_progress(note).await;
                    }
                }
            }
        };
        match answer {
            Ok(Ok(answer)) => Ok(result_of(answer)),
            Ok(Err(panic)) => {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let message = format!(
                    "scout panicked answering this {} call (a bug, please report it): {why}",
                    tool.name
                );
                Ok(error_result(&message, None))
            }
            Err(e) => Err(McpError::internal_error(format!("answering: {e}"), None)),
        }
    }
}

/// Cancels a call's rg when dropped: when the call's future is dropped
/// before it finished (cancelled, or the connection gone). A call that
/// finished has no rg left, so cancelling then stops nothing.
struct StopOnDrop(Cancel);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The tool result of a request's answer: its text as `content`, the
/// rest as `structuredContent`; an answer with an `error` (bad input, a
/// broken environment) is a result with `isError`, worded as the command
/// line words it.
fn result_of(answer: request::Answer) -> CallToolResult {
    let mut answer = answer.into_object();
    if let Some(message) = answer
        .get("error")
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
    {
        let message = message.to_string();
        return error_result(&message, Some(Value::Object(answer)));
    }
    let mut text = match answer.remove("text") {
        Some(Value::String(text)) => text,
        _ => String::new(),
    };
    if answer.get("exit").and_then(Value::as_u64) == Some(1) {
        // What was searched follows (a search's header, its scope).
        text.insert_str(0, "no match\n");
    }
    for warning in answer
        .get("warnings")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        text.push_str(&format!("warning: {warning}\n"));
    }
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(Value::Object(answer));
    result
}

/// A tool result with `isError`: the message as text, and the answer (or
/// `{"error": {"message": ...}}`) as structured content.
fn error_result(message: &str, answer: Option<Value>) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(message)]);
    result.structured_content = Some(
        answer.unwrap_or_else(|| serde_json::json!({ "error": { "message": message }, "exit": 2 })),
    );
    result
}

/// The tools as `tools/list` gives them: the read-only ones, and with
/// `allow_edit` the edit tool, annotated as writing (destructive, not
/// read-only).
pub fn tool_list(allow_edit: bool) -> Vec<Tool> {
    let mut list: Vec<Tool> = tools::TOOLS
        .iter()
        .map(|spec| {
            Tool::new(spec.name, spec.description, spec.input_schema())
                .with_raw_output_schema(Arc::new(tools::ToolSpec::output_schema()))
        })
        .collect();
    if allow_edit {
        let spec = &tools::EDIT_TOOL;
        list.push(
            Tool::new(spec.name, spec.description, spec.input_schema())
                .with_raw_output_schema(Arc::new(tools::ToolSpec::output_schema()))
                .with_annotations(
                    rmcp::model::ToolAnnotations::new()
                        .read_only(false)
                        .destructive(true)
                        .idempotent(false),
                ),
        );
    }
    list
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("scout", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tool_list(self.allow_edit)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(tool) = tools::tool(&request.name, self.allow_edit) else {
            let mut names: Vec<&str> = tools::TOOLS.iter().map(|t| t.name).collect();
            if self.allow_edit {
                names.push(tools::EDIT_TOOL.name);
            } else if request.name == tools::EDIT_TOOL.name {
                return Err(McpError::invalid_params(
                    "the edit tool is offered only by `scout mcp --allow-edit`; this server only reads",
                    None,
                ));
            }
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool {:?}; the tools are {}",
                    request.name,
                    names.join(", ")
                ),
                None,
            ));
        };
        let arguments = request.arguments.unwrap_or_default();
        Ok(self.call(tool, arguments, &context).await?.into())
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        *self.roots.lock().await = None;
    }
}
