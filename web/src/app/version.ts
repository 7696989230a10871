/** The version the spec shows in the side menu and the login footer (spec/01 §9). */
export const APP_VERSION = '8.0.1';
