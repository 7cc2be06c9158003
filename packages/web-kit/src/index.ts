// The web UIs' shared kit: the API client, the session gate and sign-in form, layout, forms, dialogs, toasts, code blocks, states.
export * from './api.ts';
export * from './clipboard.ts';
export * from './code-block.tsx';
export * from './dialog.tsx';
export * from './format.ts';
export * from './forms.tsx';
export * from './hooks.ts';
export * from './layout.tsx';
export * from './session.tsx';
export * from './states.tsx';
export * from './tabs.tsx';
export * from './toast.tsx';
export * from './upload.ts';
