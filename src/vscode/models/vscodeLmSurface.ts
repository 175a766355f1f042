// The real `vscode.lm` as the LmSurface the client and the participant use. The only module of the
// Language Model client that imports `vscode`; everything it does is a direct translation.
import * as vscode from 'vscode';
import type { LmCancellationToken, LmChatModel, LmSurface } from './lmSurface';

/**
 * Tokens reaching sendRequest/countTokens come from createCancellation below, so they are real
 * vscode.CancellationTokens; the structural type only hides that from the vscode-free client.
 */
function asVscodeToken(token: LmCancellationToken | undefined): vscode.CancellationToken | undefined {
  return token as vscode.CancellationToken | undefined;
}

export function wrapChatModel(chat: vscode.LanguageModelChat): LmChatModel {
  return {
    id: chat.id,
    name: chat.name,
    vendor: chat.vendor,
    family: chat.family,
    version: chat.version,
    maxInputTokens: chat.maxInputTokens,
    sendRequest: (messages, options, token) =>
      chat.sendRequest(
        messages.map((m) => (m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.content) : vscode.LanguageModelChatMessage.User(m.content))),
        options,
        asVscodeToken(token),
      ),
    countTokens: (text, token) => chat.countTokens(text, asVscodeToken(token)),
  };
}

export const vscodeLmSurface: LmSurface = {
  selectChatModels: async (selector) => (await vscode.lm.selectChatModels(selector)).map(wrapChatModel),
  createCancellation: () => new vscode.CancellationTokenSource(),
};
