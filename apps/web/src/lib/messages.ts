/**
 * The spec's messages (`MESSAGES`, about 1 KB gzip), loaded when the shell first needs one:
 * the shell only shows them on failures (server error, expired session), so pages that do
 * not use them otherwise never download them.
 */
export const loadMessages = () => import('@conductor/shared/constants/messages').then((module) => module.MESSAGES);
