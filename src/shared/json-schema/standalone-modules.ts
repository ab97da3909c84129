/** Module names under which standalone validators import Toolplane's own helpers (see validatorFromCode). */
export const LINEAR_REGEXP_MODULE = 'toolplane:linear-regexp';
export const ALL_DISTINCT_MODULE = 'toolplane:all-distinct';
