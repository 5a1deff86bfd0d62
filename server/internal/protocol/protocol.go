// Package protocol is the subset of the Language Server Protocol 3.17 that
// cudaforklint's server speaks, written from the specification
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/).
// Type names, field names and JSON keys are the specification's (the
// notebook change event's inline types are named after their fields);
// optional fields the server never reads or writes are left out. The JSON-RPC layer
// is github.com/sourcegraph/jsonrpc2's.
package protocol

import "encoding/json"

// Methods.
const (
	MethodInitialize            = "initialize"
	MethodInitialized           = "initialized"
	MethodShutdown              = "shutdown"
	MethodExit                  = "exit"
	MethodDidOpen               = "textDocument/didOpen"
	MethodDidChange             = "textDocument/didChange"
	MethodDidSave               = "textDocument/didSave"
	MethodDidClose              = "textDocument/didClose"
	MethodCodeAction            = "textDocument/codeAction"
	MethodPublishDiagnostics    = "textDocument/publishDiagnostics"
	MethodDidChangeWatchedFiles = "workspace/didChangeWatchedFiles"
	MethodDidChangeFolders      = "workspace/didChangeWorkspaceFolders"
	MethodRegisterCapability    = "client/registerCapability"
	MethodShowMessage           = "window/showMessage"
	MethodNotebookDidOpen       = "notebookDocument/didOpen"
	MethodNotebookDidChange     = "notebookDocument/didChange"
	MethodNotebookDidSave       = "notebookDocument/didSave"
	MethodNotebookDidClose      = "notebookDocument/didClose"
)

// JSON-RPC error codes the server returns (LSP's ErrorCodes).
const (
	CodeServerNotInitialized = -32002
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
)

// Position encodings (PositionEncodingKind).
const (
	EncodingUTF8  = "utf-8"
	EncodingUTF16 = "utf-16"
)

// Code action kinds.
const (
	KindQuickFix = "quickfix"
	// KindFixAll is the source action that applies every safe fix of a
	// document (editors run it on save: "source.fixAll.cudaforklint").
	KindFixAll = "source.fixAll.cudaforklint"
)

// Diagnostic severities.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
)

// MessageError is the type of an error shown with window/showMessage.
const MessageError = 1

// FileChanged is the type of a changed file in
// workspace/didChangeWatchedFiles (1 is created, 3 deleted: the server
// treats all three alike).
const FileChanged = 2

// Notebook cell kinds (NotebookCellKind).
const (
	CellKindMarkup = 1
	CellKindCode   = 2
)

// NotebookTypeJupyter is the notebook type of Jupyter notebooks (VS Code's
// name for them).
const NotebookTypeJupyter = "jupyter-notebook"

// SyncIncremental is the text document sync kind in which didChange sends
// the edited ranges.
const SyncIncremental = 2

type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type InitializeParams struct {
	ProcessID             *int               `json:"processId"`
	RootURI               *string            `json:"rootUri"`
	RootPath              *string            `json:"rootPath,omitempty"`
	WorkspaceFolders      []WorkspaceFolder  `json:"workspaceFolders,omitempty"`
	Capabilities          ClientCapabilities `json:"capabilities"`
	InitializationOptions json.RawMessage    `json:"initializationOptions,omitempty"`
}

type ClientCapabilities struct {
	General struct {
		PositionEncodings []string `json:"positionEncodings,omitempty"`
	} `json:"general"`
	Workspace struct {
		WorkspaceEdit struct {
			DocumentChanges bool `json:"documentChanges"`
		} `json:"workspaceEdit"`
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
	} `json:"workspace"`
}

// InitializationOptions are the server's own settings, passed by the
// client in initialize's initializationOptions.
type InitializationOptions struct {
	// DebounceMs delays re-checking after a change, in milliseconds; a
	// change within the delay restarts it. Nil means the default.
	DebounceMs *int `json:"debounceMs,omitempty"`
}

type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   ServerInfo         `json:"serverInfo"`
}

type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type ServerCapabilities struct {
	PositionEncoding   string                  `json:"positionEncoding"`
	TextDocumentSync   TextDocumentSyncOptions `json:"textDocumentSync"`
	CodeActionProvider CodeActionOptions       `json:"codeActionProvider"`
	// NotebookDocumentSync says which notebooks the client syncs
	// through notebookDocument/* (LSP 3.17).
	NotebookDocumentSync *NotebookDocumentSyncOptions `json:"notebookDocumentSync,omitempty"`
	Workspace            struct {
		WorkspaceFolders struct {
			Supported           bool `json:"supported"`
			ChangeNotifications bool `json:"changeNotifications"`
		} `json:"workspaceFolders"`
	} `json:"workspace"`
}

type TextDocumentSyncOptions struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"`
	Save      SaveOptions `json:"save"`
}

type SaveOptions struct {
	IncludeText bool `json:"includeText"`
}

type CodeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

// OptionalVersionedTextDocumentIdentifier has a null version for a file
// that is not open in the editor.
type OptionalVersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version *int   `json:"version"`
}

type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

type TextDocumentContentChangeEvent struct {
	// Range is nil when Text is the whole document.
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity"`
	Code               string                         `json:"code,omitempty"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

type CodeDescription struct {
	Href string `json:"href"`
}

type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

type CodeActionContext struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
}

type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// WorkspaceEdit uses DocumentChanges when the client supports them (the
// edits then name the document version they apply to), else Changes.
type WorkspaceEdit struct {
	Changes         map[string][]TextEdit `json:"changes,omitempty"`
	DocumentChanges []TextDocumentEdit    `json:"documentChanges,omitempty"`
}

type TextDocumentEdit struct {
	TextDocument OptionalVersionedTextDocumentIdentifier `json:"textDocument"`
	Edits        []TextEdit                              `json:"edits"`
}

type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

type FileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

type DidChangeWatchedFilesParams struct {
	Changes []FileEvent `json:"changes"`
}

type DidChangeWorkspaceFoldersParams struct {
	Event struct {
		Added   []WorkspaceFolder `json:"added"`
		Removed []WorkspaceFolder `json:"removed"`
	} `json:"event"`
}

type RegistrationParams struct {
	Registrations []Registration `json:"registrations"`
}

type Registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

type DidChangeWatchedFilesRegistrationOptions struct {
	Watchers []FileSystemWatcher `json:"watchers"`
}

type FileSystemWatcher struct {
	GlobPattern string `json:"globPattern"`
}

type ShowMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// Notebook document synchronization (LSP 3.17). A client that syncs a
// notebook sends its cells' text documents through these notifications,
// not through textDocument/didOpen and the rest; diagnostics and code
// actions still name each cell by its text document's URI.

type NotebookDocumentSyncOptions struct {
	NotebookSelector []NotebookSelector `json:"notebookSelector"`
	Save             bool               `json:"save"`
}

// NotebookSelector selects notebooks by type and the cells of them to
// sync, by language.
type NotebookSelector struct {
	Notebook *NotebookDocumentFilter `json:"notebook,omitempty"`
	Cells    []NotebookCellLanguage  `json:"cells,omitempty"`
}

type NotebookDocumentFilter struct {
	NotebookType string `json:"notebookType,omitempty"`
	Scheme       string `json:"scheme,omitempty"`
	Pattern      string `json:"pattern,omitempty"`
}

type NotebookCellLanguage struct {
	Language string `json:"language"`
}

type NotebookDocument struct {
	URI          string         `json:"uri"`
	NotebookType string         `json:"notebookType"`
	Version      int            `json:"version"`
	Cells        []NotebookCell `json:"cells"`
}

type NotebookCell struct {
	Kind     int    `json:"kind"`
	Document string `json:"document"`
}

type DidOpenNotebookDocumentParams struct {
	NotebookDocument  NotebookDocument   `json:"notebookDocument"`
	CellTextDocuments []TextDocumentItem `json:"cellTextDocuments"`
}

type VersionedNotebookDocumentIdentifier struct {
	Version int    `json:"version"`
	URI     string `json:"uri"`
}

type NotebookDocumentIdentifier struct {
	URI string `json:"uri"`
}

type DidChangeNotebookDocumentParams struct {
	NotebookDocument VersionedNotebookDocumentIdentifier `json:"notebookDocument"`
	Change           NotebookDocumentChangeEvent         `json:"change"`
}

// NotebookDocumentChangeEvent leaves out the metadata change: the server
// does not read notebook metadata.
type NotebookDocumentChangeEvent struct {
	Cells *NotebookDocumentCellChanges `json:"cells,omitempty"`
}

// NotebookDocumentCellChanges is the event's `cells`.
type NotebookDocumentCellChanges struct {
	Structure   *NotebookCellStructureChange `json:"structure,omitempty"`
	Data        []NotebookCell               `json:"data,omitempty"`
	TextContent []NotebookCellTextChange     `json:"textContent,omitempty"`
}

// NotebookCellStructureChange is `cells.structure`: the splice of the cell
// array, and the cells' text documents opened and closed with it.
type NotebookCellStructureChange struct {
	Array    NotebookCellArrayChange  `json:"array"`
	DidOpen  []TextDocumentItem       `json:"didOpen,omitempty"`
	DidClose []TextDocumentIdentifier `json:"didClose,omitempty"`
}

// NotebookCellArrayChange replaces DeleteCount cells from Start with Cells.
type NotebookCellArrayChange struct {
	Start       int            `json:"start"`
	DeleteCount int            `json:"deleteCount"`
	Cells       []NotebookCell `json:"cells,omitempty"`
}

// NotebookCellTextChange is one element of `cells.textContent`.
type NotebookCellTextChange struct {
	Document VersionedTextDocumentIdentifier  `json:"document"`
	Changes  []TextDocumentContentChangeEvent `json:"changes"`
}

type DidSaveNotebookDocumentParams struct {
	NotebookDocument NotebookDocumentIdentifier `json:"notebookDocument"`
}

type DidCloseNotebookDocumentParams struct {
	NotebookDocument  NotebookDocumentIdentifier `json:"notebookDocument"`
	CellTextDocuments []TextDocumentIdentifier   `json:"cellTextDocuments"`
}
